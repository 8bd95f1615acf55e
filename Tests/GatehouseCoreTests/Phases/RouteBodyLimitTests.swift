import GatehouseConfig
import Testing
@testable import GatehouseCore

/// `max_body_bytes`: a route's value replaces the server's for that route, up or down.
struct RouteBodyLimitTests {
    static let serverLimit = 10 * 1024 * 1024
    static let uploadLimit = 200 * 1024 * 1024
    static let smallLimit = 1024

    static func snapshot() throws -> GatewaySnapshot {
        var config = GatewayConfig()
        config.server.maxBodyBytes = serverLimit
        config.upstreams = [UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4000, path: "/graphql"))]
        var upload = RouteConfig(path: "/graphql/upload", upstream: "app", auth: .none)
        upload.maxBodyBytes = uploadLimit
        var small = RouteConfig(path: "/graphql/small", upstream: "app", auth: .none)
        small.maxBodyBytes = smallLimit
        config.routes = [RouteConfig(path: "/graphql", upstream: "app", auth: .none), upload, small]
        return try GatewaySnapshot.compile(config).get()
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let route: String
        let declaredLength: Int
        let admitted: Bool
        var testDescription: String { "\(route) \(declaredLength) -> \(admitted ? "read" : "413")" }
    }

    static let rows: [Row] = [
        Row(route: "/graphql", declaredLength: serverLimit, admitted: true),
        Row(route: "/graphql", declaredLength: serverLimit + 1, admitted: false),
        Row(route: "/graphql/upload", declaredLength: serverLimit + 1, admitted: true),
        Row(route: "/graphql/upload", declaredLength: uploadLimit, admitted: true),
        Row(route: "/graphql/upload", declaredLength: uploadLimit + 1, admitted: false),
        Row(route: "/graphql/small", declaredLength: smallLimit, admitted: true),
        Row(route: "/graphql/small", declaredLength: smallLimit + 1, admitted: false),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) throws {
        let snapshot = try Self.snapshot()
        let route = try #require(Array(row.route.utf8).withUnsafeBytes { snapshot.router.match($0) })
        #expect((row.declaredLength <= route.bodyLimit(server: snapshot.maxBodyBytes)) == row.admitted)
    }
}
