import Testing
@testable import GatehouseConfig

@Suite struct AddressSyntaxTests {
    @Test(arguments: [
        ("0.0.0.0:8080", "0.0.0.0", 8080),
        ("127.0.0.1:0", "127.0.0.1", 0),
        ("[::]:8080", "::", 8080),
        ("[::1]:65535", "::1", 65535),
        ("localhost:9901", "localhost", 9901),
        ("gateway.internal:80", "gateway.internal", 80),
    ])
    func hostPorts(_ text: String, _ host: String, _ port: Int) {
        #expect(HostPortSyntax.parse(text) == .success(HostPort(host: host, port: port)))
    }

    @Test(arguments: ["8080", "host", "host:", "host:http", "host:-1", "[::1:80", "[zz]:80", "bad_host:80", "1.2.3.4:123456", "1.2.3:80", "10.0.0.256:80"])
    func invalidHostPorts(_ text: String) {
        guard case .failure = HostPortSyntax.parse(text) else {
            Issue.record("\(text) was accepted")
            return
        }
    }

    @Test(arguments: ["localhost", "publish.example.com", "publish.example.com.", "a", "xn--bcher-kva.example",
                      "host-1.internal", "1host.example", "123.example", String(repeating: "a", count: 63)])
    func hostNames(_ text: String) {
        #expect(IPAddressSyntax.isHostName(text))
    }

    @Test(arguments: ["", ".", "a..b", ".a", "-a", "a-", "a-.b", "a_b", "a b", "*.example.com", "10.0.0.256", "1.2.3",
                      "123", "example.123", "example.123.", String(repeating: "a", count: 64)])
    func notHostNames(_ text: String) {
        #expect(!IPAddressSyntax.isHostName(text))
    }

    @Test(arguments: ["publish.internal", "localhost", "Publish.Example.COM", "10.0.0.1", "::1", "2001:db8::1"])
    func tlsServerNames(_ name: String) {
        #expect(TLSServerNameSyntax.problem(in: name) == nil)
    }

    @Test(arguments: ["application/json", "application/graphql-response+json", "text/plain", "image/svg+xml",
                      "application/vnd.api+json", "application/x-ndjson"])
    func mediaTypes(_ text: String) {
        #expect(MediaTypeSyntax.problem(in: text) == nil)
    }

    @Test(arguments: ["json", "/json", "application/", "a/b/c", "*/*", "text/*", "*/json", "Text/Plain",
                      "text/plain;charset=utf-8", " text/plain", "text/pla in", "text/\u{e9}"])
    func invalidMediaTypes(_ text: String) {
        #expect(MediaTypeSyntax.problem(in: text) != nil)
    }

    @Test(arguments: [
        ("10.0.0.0/8", [10, 0, 0, 0] as [UInt8], 8),
        ("10.1.2.3/8", [10, 0, 0, 0], 8),
        ("192.0.2.7", [192, 0, 2, 7], 32),
        ("0.0.0.0/0", [0, 0, 0, 0], 0),
        ("::1", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128),
        ("fd00::/8", [0xFD, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 8),
        ("fd12:3456::1/20", [0xFD, 0x12, 0x30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 20),
    ])
    func cidrs(_ text: String, _ address: [UInt8], _ prefixLength: Int) {
        #expect(CIDRSyntax.parse(text) == .success(CIDR(address: address, prefixLength: prefixLength)))
    }

    @Test(arguments: ["10.0.0.0/33", "::/129", "10.0.0/8", "010.0.0.1", "10.0.0.0/", "10.0.0.0/-1", "host", ""])
    func invalidCIDRs(_ text: String) {
        guard case .failure = CIDRSyntax.parse(text) else {
            Issue.record("\(text) was accepted")
            return
        }
    }

    @Test func parsedCIDRsMatchAddresses() throws {
        let network = try CIDRSyntax.parse("10.1.2.3/8").get()
        #expect(network.contains([10, 200, 1, 1]))
        #expect(!network.contains([11, 0, 0, 1]))
    }

    @Test(arguments: [
        ("http://127.0.0.1:4000/graphql", UpstreamURL.Scheme.http, "127.0.0.1", 4000, "/graphql"),
        ("https://publish.example.com", .https, "publish.example.com", 443, "/"),
        ("http://api.internal", .http, "api.internal", 80, "/"),
        ("HTTP://api.internal/x/y/", .http, "api.internal", 80, "/x/y/"),
        ("http://[::1]:8080/g", .http, "::1", 8080, "/g"),
        ("https://[2001:db8::1]/", .https, "2001:db8::1", 443, "/"),
        ("http://a/graphql/execute.json/wknd;x=1", .http, "a", 80, "/graphql/execute.json/wknd;x=1"),
    ])
    func upstreamURLs(_ text: String, _ scheme: UpstreamURL.Scheme, _ host: String, _ port: Int, _ path: String) {
        #expect(UpstreamURLSyntax.parse(text) == .success(UpstreamURL(scheme: scheme, host: host, port: port, path: path)))
    }

    @Test(arguments: [
        "ws://a", "http//a", "http://", "http://a:70000/", "http://a:/", "http://[::1/", "http://a b/",
        "http://a/pa th", "http://a/%zz", "http://u@a/", "http://a/?q", "http://a/#f", "http://10.0.0.256/",
    ])
    func invalidUpstreamURLs(_ text: String) {
        guard case .failure = UpstreamURLSyntax.parse(text) else {
            Issue.record("\(text) was accepted")
            return
        }
    }

    @Test(arguments: ["/", "/graphql", "/graphql/noauth", "/content/*", "/*", "/a-b_c.d~e/f:g@h;i=j"])
    func validRoutePaths(_ path: String) {
        #expect(RoutePathSyntax.problem(in: path) == nil)
    }
}
