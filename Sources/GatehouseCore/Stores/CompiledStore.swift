import GatehouseConfig
import GatehouseGraphQL
import GatehouseIO

/// One `stores:` entry ready for the workers: the Redis client options (host resolved once, at
/// compile time, since hiredis would resolve it with a blocking call on the loop) and its metrics.
final class CompiledStore: Sendable {
    /// How long a TCP connect to Redis may take. Commands have the store's own `timeout`; a
    /// connect is allowed longer since it happens once per connection, off the request path.
    static let connectTimeout: Duration = .seconds(1)

    let config: StoreConfig
    let options: RedisClient.Options
    let series: StoreMetrics.Series

    init(config: StoreConfig, address: SocketAddress, metrics: StoreMetrics) {
        self.config = config
        options = RedisClient.Options(
            host: address.hostAndPort.0, port: config.url.port, password: config.password,
            database: config.url.database, commandTimeoutNanos: UInt64(config.timeout.nanoseconds),
            connectTimeoutNanos: UInt64(Self.connectTimeout.nanoseconds),
            setupCommands: [GCRAScript.loadCommand])
        series = metrics.series(for: config)
    }

    /// Every store of `config`, or the hosts that cannot be resolved, with their key paths.
    static func compile(_ config: GatewayConfig, metrics: StoreMetrics) -> ([CompiledStore], [ConfigIssue]) {
        var stores: [CompiledStore] = []
        var issues: [ConfigIssue] = []
        for store in config.stores {
            guard let address = SystemHostResolver().resolve(host: store.url.host, port: store.url.port).first else {
                issues.append(ConfigIssue(path: "stores.\(store.name).url", message: "cannot resolve host \"\(store.url.host)\""))
                continue
            }
            stores.append(CompiledStore(config: store, address: address, metrics: metrics))
        }
        return (stores, issues)
    }

    /// `/status`: the store's name, url (never its password), whether every worker's connection
    /// is up, and the last error seen.
    var statusJSON: JSONValue {
        .object([
            "name": .string(config.name),
            "type": .string(StoreConfig.redisType),
            "url": .string(series.url),
            "up": .bool(series.isUp),
            "last_error": series.lastError.map(JSONValue.string) ?? .null,
        ])
    }
}
