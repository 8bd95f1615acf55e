import GatehouseGraphQL
import GatehouseConfig

/// The admin `GET /status` document (README, "Observability"): what this process is running, as JSON
/// built with the project's own serializer.
struct StatusReport {
    var version: String
    var uptimeSeconds: Int64
    /// Wall-clock time of the last successful (re)load, nanoseconds since the Unix epoch.
    var configLoadedAtNanos: Int64
    var workers: Int
    var draining: Bool
    var snapshot: GatewaySnapshot
    /// Now, in seconds since the Unix epoch (key ages are reported against it).
    var wallClockSeconds: Int64 = 0
    /// Open WebSocket tunnels and their closes (`RealtimeStatus`).
    var realtime: JSONValue = RealtimeStatus.json([])

    var json: JSONValue {
        .object([
            "version": .string(version),
            "uptime_seconds": .number(String(uptimeSeconds)),
            "config_loaded_at": .string(Self.rfc3339(configLoadedAtNanos)),
            "workers": .number(String(workers)),
            "draining": .bool(draining),
            "routes": .array(snapshot.routes.map(Self.route)),
            "upstreams": .array(snapshot.upstreams.map(Self.upstream)),
            "stores": snapshot.storesStatusJSON(),
            "identity_providers": snapshot.keySourcesStatusJSON(now: wallClockSeconds),
            "realtime": realtime,
            // null while no route caches, rather than numbers of a cache nobody uses.
            "cache": snapshot.routes.contains { $0.cache != nil } ? ResponseCache.process.statusJSON() : .null,
        ])
    }

    var serialized: String { json.serializedString }

    private static func route(_ route: CompiledRoute) -> JSONValue {
        let config = route.config
        let auth: JSONValue
        switch config.auth {
        case .none: auth = .string("none")
        case .anyOf(let names): auth = .array(names.map(JSONValue.string))
        }
        return .object([
            "path": .string(config.path),
            "methods": .array(config.methods.map(JSONValue.string)),
            "upstream": .string(config.upstream),
            "auth": auth,
            "persisted": .string(config.persisted.rawValue),
        ])
    }

    /// The upstream's settings and, from the process-wide status board, each endpoint's address,
    /// health, ejection and requests in flight.
    private static func upstream(_ upstream: CompiledUpstream) -> JSONValue {
        // Before any worker has reported, the addresses the configuration resolved to.
        var endpoints: JSONValue = .array(upstream.addresses.map { address in
            let (host, port) = address.hostAndPort
            let label = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            return .object(["address": .string(label), "healthy": .bool(true)])
        })
        if case .object(let status) = UpstreamStatusBoard.process.statusJSON(upstream: upstream.config.name),
           case .array(let listed)? = status["endpoints"], !listed.isEmpty {
            endpoints = .array(listed)
        }
        return .object([
            "name": .string(upstream.config.name),
            "url": .string(upstream.config.url.description),
            "kind": .string(upstream.config.kind.rawValue),
            "endpoints": endpoints,
        ])
    }

    private static func rfc3339(_ nanos: Int64) -> String {
        var bytes: [UInt8] = []
        Timestamp.appendISO8601(nanos: nanos, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
