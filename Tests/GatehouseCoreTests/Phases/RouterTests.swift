import GatehouseConfig
import Testing
@testable import GatehouseCore

/// Exact routes before prefixes, longer prefixes before shorter, case-sensitive.
struct RouterTests {
    static func snapshot() throws -> GatewaySnapshot {
        var config = GatewayConfig()
        config.upstreams = [UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4000, path: "/graphql"))]
        config.routes = ["/graphql/noauth", "/graphql", "/graphql/*", "/content/*", "/content/deep/*"].map {
            RouteConfig(path: $0, upstream: "app", auth: .none)
        }
        return try GatewaySnapshot.compile(config).get()
    }

    static let cases: [(path: String, route: String?)] = [
        ("/graphql", "/graphql"),
        ("/graphql/noauth", "/graphql/noauth"),
        ("/graphql/noauth/x", "/graphql/*"),
        ("/graphql/other", "/graphql/*"),
        ("/GRAPHQL", nil),
        ("/graphql/NOAUTH", "/graphql/*"),
        ("/content", nil),
        ("/content/", "/content/*"),
        ("/content/a", "/content/*"),
        ("/content/deep/a", "/content/deep/*"),
        ("/content/deeper", "/content/*"),
        ("/graphqlx", nil),
        ("/", nil),
    ]

    @Test(arguments: cases)
    func matches(_ row: (path: String, route: String?)) throws {
        let router = try Self.snapshot().router
        let matched = Array(row.path.utf8).withUnsafeBytes { router.match($0) }
        #expect(matched?.label == row.route)
    }

    /// Exact routes are found by their path's length: many of one length, and of many lengths,
    /// each matches only itself, and a path of a length no exact route has falls to the prefixes.
    @Test func manyExactRoutesEachMatchOnlyThemselves() throws {
        var config = GatewayConfig()
        config.upstreams = [UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4000, path: "/"))]
        let exact = (0..<40).map { "/r/\($0 % 4 == 0 ? "long-" : "")\($0)" } + ["/a", "/b", "/ab"]
        config.routes = (exact + ["/r/*", "/"]).map { RouteConfig(path: $0, upstream: "app", auth: .none) }
        let router = try GatewaySnapshot.compile(config).get().router
        func route(_ path: String) -> String? { Array(path.utf8).withUnsafeBytes { router.match($0) }?.label }
        for path in exact { #expect(route(path) == path) }
        #expect(route("/r/40") == "/r/*")
        #expect(route("/r/a-path-longer-than-every-exact-one") == "/r/*")
        #expect(route("/c") == nil)
        #expect(route("/") == "/")
    }

    @Test func unknownUpstreamIsReportedWithItsKeyPath() {
        var config = GatewayConfig()
        config.upstreams = [UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4000, path: "/"))]
        config.routes = [RouteConfig(path: "/graphql", upstream: "ap", auth: .none)]
        guard case .failure(let errors) = GatewaySnapshot.compile(config) else {
            Issue.record("compiled")
            return
        }
        #expect(errors.issues.map(\.description) == [#"routes[0].upstream: unknown upstream "ap""#])
    }

    @Test func unknownAuthProviderIsReportedWithItsKeyPath() {
        var config = GatewayConfig()
        config.upstreams = [UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4000, path: "/"))]
        config.routes = [RouteConfig(path: "/graphql", upstream: "app", auth: .anyOf(["usr-jwt"]))]
        guard case .failure(let errors) = GatewaySnapshot.compile(config) else {
            Issue.record("compiled")
            return
        }
        #expect(errors.issues.map(\.description) == [#"routes[0].auth: unknown auth provider "usr-jwt""#])
    }
}
