import Testing
@testable import GatehouseConfig

/// `routes[i].rate_limit` as decoded: defaults, every key form, every window.
@Suite struct GoodRateLimitConfigTests {
    static func limits(auth: String = "none", _ limits: String) -> [RateLimitConfig]? {
        ConfigTestSupport.config(BadRateLimitConfigTests.route(auth: auth, limits))?.routes.first?.rateLimits
    }

    @Test func defaultsNameTheKeyAndBurstTheCount() {
        #expect(Self.limits("[{key: ip, rate: 10/m}]")
                == [RateLimitConfig(name: "ip", key: .ip, rate: RateLimitRate(count: 10, per: .minute), burst: 10, store: "memory")])
    }

    @Test func everyFieldWritten() {
        let written = "[{name: login-per-ip, key: ip, rate: 10/m, burst: 5, store: memory}]"
        #expect(Self.limits(written)
                == [RateLimitConfig(name: "login-per-ip", key: .ip, rate: RateLimitRate(count: 10, per: .minute), burst: 5)])
    }

    static let keyCases: [(written: String, auth: String, key: RateLimitConfig.Key, name: String)] = [
        ("ip", "none", .ip, "ip"),
        ("route", "none", .route, "route"),
        ("\"header:X-Tenant\"", "none", .header("X-Tenant"), "header:X-Tenant"),
        ("subject", "user-jwt", .subject, "subject"),
        ("subject", "[user-jwt, user-keys]", .subject, "subject"),
        ("api_key", "user-keys", .apiKey, "api_key"),
        ("api_key", "[user-jwt, user-keys]", .apiKey, "api_key"),
    ]

    @Test(arguments: keyCases)
    func keys(_ row: (written: String, auth: String, key: RateLimitConfig.Key, name: String)) {
        let decoded = Self.limits(auth: row.auth, "[{key: \(row.written), rate: 1/s}]")
        #expect(decoded?.first?.key == row.key)
        #expect(decoded?.first?.name == row.name)
    }

    @Test(arguments: [("5/s", 5, 1), ("100/m", 100, 60), ("5000/h", 5000, 3600)])
    func windows(_ row: (written: String, count: Int, seconds: Int)) {
        let rate = Self.limits("[{key: route, rate: \(row.written)}]")?.first?.rate
        #expect(rate?.count == row.count)
        #expect(rate?.window.seconds == row.seconds)
    }

    @Test func noLimitsByDefault() {
        #expect(ConfigTestSupport.config(ConfigTestSupport.minimalYAML)?.routes.first?.rateLimits == [])
    }
}
