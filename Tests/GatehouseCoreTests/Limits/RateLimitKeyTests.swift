import GatehouseConfig
import GatehouseHTTP
import Testing
@testable import GatehouseCore

/// The key each strategy derives from a request.
struct RateLimitKeyTests {
    static let peer: [UInt8] = [10, 0, 0, 2]
    static let trusted = [CIDR(address: [10, 0, 0, 0], prefixLength: 8)]

    static func head(_ headers: String = "") -> RequestHead {
        RequestHeads.get(headers: headers)
    }

    static func key(_ strategy: RateLimitKeyStrategy, _ headers: String = "", trusted: [CIDR] = trusted,
                    identity: AuthenticatedIdentity = .anonymous) -> [UInt8]? {
        var key: [UInt8] = []
        let request = RateLimitKeyStrategy.Request(head: head(headers), peer: peer, trustedProxies: trusted, identity: identity)
        return strategy.appendKey(to: &key, for: request) ? key : nil
    }

    static let address = ForwardedClientAddress.addressTag

    /// (X-Forwarded-For lines, trusted proxies, the address counted).
    static let forwardedCases: [(headers: String, trusted: [CIDR], expected: [UInt8])] = [
        ("", [], [address, 10, 0, 0, 2]),
        ("X-Forwarded-For: 1.1.1.1\r\n", [], [address, 10, 0, 0, 2]),
        ("", trusted, [address, 10, 0, 0, 2]),
        ("X-Forwarded-For: 1.1.1.1\r\n", trusted, [address, 1, 1, 1, 1]),
        ("X-Forwarded-For: 6.6.6.6, 1.1.1.1, 10.9.9.9\r\n", trusted, [address, 1, 1, 1, 1]),
        ("X-Forwarded-For: 6.6.6.6\r\nX-Forwarded-For: 1.1.1.1 ,10.1.1.1\r\n", trusted, [address, 1, 1, 1, 1]),
        ("X-Forwarded-For: 10.3.3.3, 10.4.4.4\r\n", trusted, [address, 10, 3, 3, 3]),
        ("X-Forwarded-For: 6.6.6.6, bogus\r\n", trusted, [ForwardedClientAddress.textTag] + Array("bogus".utf8)),
    ]

    @Test(arguments: forwardedCases)
    func ipKeyWalksForwardedForFromTheRight(_ row: (headers: String, trusted: [CIDR], expected: [UInt8])) {
        #expect(Self.key(.ip, row.headers, trusted: row.trusted) == row.expected)
    }

    @Test func headerKeyIsTheValueAndMissingIsEmpty() {
        let strategy = RateLimitKeyStrategy(.header("X-Tenant"))
        #expect(Self.key(strategy, "x-tenant: acme\r\n") == Array("acme".utf8))
        #expect(Self.key(strategy) == [])
    }

    @Test func subjectKeyIsProviderAndSub() {
        #expect(Self.key(.subject, identity: .token(provider: "jwt", subject: "ann")) == Array("jwt\u{0}ann".utf8))
        #expect(Self.key(.subject, identity: .apiKey(provider: "keys", value: 0..<1)) == nil, "an API key has no subject")
    }

    @Test func apiKeyKeyIsItsDigestNeverTheKey() throws {
        let headers = "X-Api-Key: secret-key-1\r\n"
        let head = Self.head(headers)
        let value = try #require(head.headerValue(named: "x-api-key"))
        let key = try #require(Self.key(.apiKey, headers, identity: .apiKey(provider: "keys", value: value)))
        #expect(key.count == "keys".utf8.count + 1 + 32)
        #expect(!String(decoding: key, as: UTF8.self).contains("secret-key-1"))
        #expect(Self.key(.apiKey, identity: .token(provider: "jwt", subject: "ann")) == nil)
    }

    @Test func longMaterialIsKeptAsItsDigest() {
        let strategy = RateLimitKeyStrategy(.header("X-Tenant"))
        let long = String(repeating: "t", count: RateLimitKeyStrategy.maximumPlainMaterial + 1)
        let key = Self.key(strategy, "X-Tenant: \(long)\r\n")
        #expect(key?.count == 1 + 32)
        #expect(key?.first == RateLimitKeyStrategy.hashedMaterialTag)
        let other = Self.key(strategy, "X-Tenant: \(long)u\r\n")
        #expect(other != key)
        let atTheLimit = String(repeating: "t", count: RateLimitKeyStrategy.maximumPlainMaterial)
        #expect(Self.key(strategy, "X-Tenant: \(atTheLimit)\r\n") == Array(atTheLimit.utf8))
    }

    @Test func routeKeyIsEmpty() {
        #expect(Self.key(.route) == [])
    }
}
