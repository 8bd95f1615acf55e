import Testing
@testable import GatehouseConfig

/// `routes[i].cache` and the top-level `cache`: defaults, and every refusal at its key path.
@Suite struct CacheConfigTests {
    static func route(auth: String = "none", _ cache: String, top: String = "") -> String {
        """
        upstreams: {app: {url: "\(ConfigTestSupport.appURL)"}}
        auth:
          user-jwt: {type: jwt, algorithms: [HS256], secret: "\(ConfigTestSupport.secret32)"}
        routes: [{path: /g, upstream: app, auth: \(auth), cache: \(cache)}]
        \(top)
        """
    }

    static let cases: [BadConfigCase] = [
        BadConfigCase("max_age missing", route("{stale_if_error: 1m}"),
                      "routes[0].cache.max_age: required; the fresh lifetime, e.g. 30s"),
        BadConfigCase("max_age zero", route("{max_age: 0s}"), "routes[0].cache.max_age: must be greater than 0"),
        BadConfigCase("unknown scope", route("{max_age: 1s, scope: user}"),
                      "routes[0].cache.scope: \"user\" is not a cache scope (expected public, subject or credential)"),
        BadConfigCase("subject on a public route", route("{max_age: 1s, scope: subject}"),
                      "routes[0].cache.scope: \"subject\" needs an authenticated route; this route has auth: none (use scope: public)"),
        BadConfigCase("credential on a public route", route("{max_age: 1s, scope: credential}"),
                      "routes[0].cache.scope: \"credential\" needs an authenticated route; this route has auth: none (use scope: public)"),
        BadConfigCase("bad vary header", route("{max_age: 1s, vary: [\"Accept Language\"]}"),
                      "routes[0].cache.vary[0]: \"Accept Language\" is not a valid header name"),
        BadConfigCase("tiny max_entry_size", route("{max_age: 1s, max_entry_size: 10}"),
                      "routes[0].cache.max_entry_size: must be at least 64 bytes"),
        BadConfigCase("misspelt key", route("{max_age: 1s, maxage: 2s}"), "routes[0].cache.maxage: unknown key"),
        BadConfigCase("unknown store", route("{max_age: 1s}", top: "cache: {store: shared}"),
                      "cache.store: unknown store \"shared\" (expected \"memory\")"),
        BadConfigCase("misspelt store", route("{max_age: 1s}",
                                              top: "stores: {shared: {type: redis, url: \"redis://127.0.0.1\"}}\ncache: {store: sahred}"),
                      "cache.store: unknown store \"sahred\" (expected \"memory\", \"shared\")"),
        BadConfigCase("tiny max_bytes", route("{max_age: 1s}", top: "cache: {max_bytes: 1KiB}"),
                      "cache.max_bytes: must be at least 65536 bytes"),
        BadConfigCase("empty invalidate list", route("{max_age: 1s}", top: "cache: {invalidate: {createMovie: []}}"),
                      "cache.invalidate.createMovie: list at least one operation whose entries this mutation drops"),
    ]

    @Test(arguments: cases)
    func refused(_ badCase: BadConfigCase) {
        #expect(ConfigTestSupport.issueLines(badCase.yaml, environment: badCase.environment) == badCase.expected)
    }

    @Test func publicScopeOnAnAuthenticatedRouteIsAllowed() throws {
        let config = try #require(ConfigTestSupport.config(Self.route(auth: "user-jwt", "{max_age: 30s, scope: public}")))
        #expect(config.routes[0].cache?.effectiveScope(auth: config.routes[0].auth) == .public)
    }

    @Test func defaults() throws {
        let config = try #require(ConfigTestSupport.config(Self.route(auth: "user-jwt", "{max_age: 30s}")))
        let cache = try #require(config.routes[0].cache)
        #expect(cache.maxAge == .seconds(30))
        #expect(cache.staleWhileRevalidate == .zero && cache.staleIfError == .zero)
        #expect(cache.effectiveScope(auth: config.routes[0].auth) == .subject)
        #expect(cache.maxEntrySize == 1 << 20 && cache.vary.isEmpty)
        #expect(config.cache == CacheConfig())
        let open = try #require(ConfigTestSupport.config(Self.route("{max_age: 30s}")))
        #expect(open.routes[0].cache?.effectiveScope(auth: .none) == .public)
    }

    @Test func everyField() throws {
        let config = try #require(ConfigTestSupport.config(Self.route(
            auth: "user-jwt",
            "{max_age: 30s, stale_while_revalidate: 1m, stale_if_error: 10m, scope: credential, vary: [Accept-Language], max_entry_size: 512KiB}",
            top: "cache: {max_bytes: 32MiB, store: memory, invalidate: {createMovie: [listMovies, getMovie]}}")))
        let cache = try #require(config.routes[0].cache)
        #expect(cache.staleWhileRevalidate == .seconds(60) && cache.staleIfError == .seconds(600))
        #expect(cache.scope == .credential && cache.vary == ["Accept-Language"] && cache.maxEntrySize == 512 * 1024)
        #expect(config.cache.maxBytes == 32 << 20)
        #expect(config.cache.invalidate == ["createMovie": ["listMovies", "getMovie"]])
    }

    @Test func storeMayNameARedisStore() throws {
        let config = try #require(ConfigTestSupport.config(Self.route(
            "{max_age: 30s}", top: "stores: {shared: {type: redis, url: \"redis://127.0.0.1\"}}\ncache: {store: shared}")))
        #expect(config.cache.store == "shared")
        #expect(config.stores.map(\.name) == ["shared"])
    }
}
