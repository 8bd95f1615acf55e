import GatehouseConfig
import Testing
@testable import GatehouseCore

/// The admin `/status` document: every field, routes and upstreams as configured, and honest
/// placeholders for what does not exist yet.
struct StatusReportTests {
    static func snapshot() throws -> GatewaySnapshot {
        var config = GatewayConfig()
        var content = UpstreamConfig(name: "content", url: UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4502, path: "/"))
        content.kind = .aem
        content.aemConfig = "wknd"
        config.upstreams = [
            UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4000, path: "/graphql")),
            content,
        ]
        var keys = APIKeyProviderConfig()
        keys.keys = ["k-1"]
        config.auth = [AuthProviderConfig(name: "keys", kind: .apiKey(keys))]
        var ops = RouteConfig(path: "/ops/*", upstream: "app", auth: .anyOf(["keys"]))
        ops.methods = ["GET"]
        ops.persisted = .only
        config.routes = [RouteConfig(path: "/graphql", upstream: "app", auth: .none), ops,
                         RouteConfig(path: "/content/*", upstream: "content", auth: .none)]
        return try GatewaySnapshot.compile(config).get()
    }

    static func report() throws -> StatusReport {
        // 2026-12-01T09:30:00.250Z
        StatusReport(version: "9.9.9", uptimeSeconds: 42, configLoadedAtNanos: 1_796_117_400_250_000_000,
                     workers: 2, draining: false, snapshot: try snapshot())
    }

    @Test func topLevelFieldsInOrder() throws {
        let json = try Self.report().json
        #expect(json.objectValue?.keys == ["version", "uptime_seconds", "config_loaded_at", "workers", "draining",
                                           "routes", "upstreams", "stores", "identity_providers", "realtime", "cache"])
        #expect(json["version"] == .string("9.9.9"))
        #expect(json["uptime_seconds"] == .number("42"))
        #expect(json["config_loaded_at"] == .string("2026-12-01T09:30:00.250Z"))
        #expect(json["workers"] == .number("2"))
        #expect(json["draining"] == .bool(false))
    }

    @Test func routesAsConfigured() throws {
        let routes = try Self.report().json["routes"]?.arrayValue?.map(\.serializedString)
        #expect(routes == [
            #"{"path":"/graphql","methods":["GET","POST"],"upstream":"app","auth":"none","persisted":"allow"}"#,
            #"{"path":"/ops/*","methods":["GET"],"upstream":"app","auth":["keys"],"persisted":"only"}"#,
            #"{"path":"/content/*","methods":["GET","POST"],"upstream":"content","auth":"none","persisted":"allow"}"#,
        ])
    }

    @Test func upstreamsWithTheirResolvedEndpoint() throws {
        let upstreams = try Self.report().json["upstreams"]?.arrayValue?.map(\.serializedString)
        #expect(upstreams == [
            #"{"name":"app","url":"http://127.0.0.1:4000/graphql","kind":"graphql","endpoints":[{"address":"127.0.0.1:4000","healthy":true}]}"#,
            #"{"name":"content","url":"http://127.0.0.1:4502/","kind":"aem","endpoints":[{"address":"127.0.0.1:4502","healthy":true}]}"#,
        ])
    }

    @Test func storesAndCacheAreNotInvented() throws {
        let json = try Self.report().json
        #expect(json["stores"] == .array([]))
        #expect(json["cache"] == .null)
    }
}
