import Testing
@testable import GatehouseHTTP

/// Client-address, host and URL headers: dropped unless the peer is a trusted proxy; `Proxy`
/// (httpoxy) dropped from everyone. Any case, `_` for `-`.
struct ClientAssertedHeadersTests {
    static let asserted = [
        "Forwarded", "X-Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host",
        "X-Forwarded-Port", "X-Forwarded-Prefix", "X-Forwarded-Server", "X-Forwarded-Ssl",
        "X-Forwarded-Scheme", "X-Forwarded-Uri", "X-Real-IP", "X-Client-IP", "Client-IP", "True-Client-IP",
        "X-True-IP", "CF-Connecting-IP", "CF-Connecting-IPv6", "Fastly-Client-IP", "Fly-Client-IP",
        "X-Cluster-Client-IP", "X-Originating-IP", "X-Remote-IP", "X-Remote-Addr", "X-ProxyUser-Ip",
        "X-Custom-IP-Authorization", "X-Azure-ClientIP", "X-AppEngine-User-IP", "X-Envoy-External-Address",
        "X-Original-Forwarded-For", "X-Host", "X-Original-Host", "X-HTTP-Host-Override", "X-Original-URL",
        "X-Rewrite-URL", "X-Original-URI", "X-Envoy-Original-Path",
    ]

    /// Each name as written, lowercase, uppercase and with underscores.
    static func spellings(_ name: String) -> [String] {
        [name, name.lowercased(), name.uppercased(), name.replacingUnderscores()]
    }

    static func dropped(_ name: String, trusted: Bool) -> Bool {
        Array(name.utf8).withUnsafeBytes { ClientAssertedHeaders.isDropped($0, trustedPeer: trusted) }
    }

    @Test(arguments: asserted)
    func droppedFromUntrustedPeers(_ name: String) {
        for spelling in Self.spellings(name) {
            #expect(Self.dropped(spelling, trusted: false), "\(spelling)")
            #expect(!Self.dropped(spelling, trusted: true), "\(spelling) from a trusted proxy")
        }
    }

    @Test(arguments: ["Proxy", "proxy", "PROXY"])
    func proxyDroppedFromEveryone(_ name: String) {
        #expect(Self.dropped(name, trusted: false))
        #expect(Self.dropped(name, trusted: true))
    }

    @Test(arguments: [
        "Host", "X-Request-Id", "X-Api-Key", "Authorization", "X-Forwardedx", "X-ForwardedFor", "X-Hosts",
        "X-Real-IPs", "Forwarder", "X-Original", "Via", "Proxies", "X-Client", "Client-IPv4", "Cookie", "",
        "X-Forwarded+For",
    ])
    func otherHeadersPass(_ name: String) {
        #expect(!Self.dropped(name, trusted: false), "\(name)")
    }
}

private extension String {
    func replacingUnderscores() -> String { String(map { $0 == "-" ? "_" : $0 }) }
}
