import GatehouseConfig
import GatehouseIO

/// An upstream resolved for the hot path.
public final class CompiledUpstream: Sendable {
    public let index: Int
    public let config: UpstreamConfig
    public let address: SocketAddress
    /// "Host: …\r\n" as sent upstream.
    public let hostLine: [UInt8]
    public let connectTimeoutNanos: UInt64
    /// Pools survive a reload when this key is unchanged.
    public let poolKey: String

    init(index: Int, config: UpstreamConfig, address: SocketAddress) {
        self.index = index
        self.config = config
        self.address = address
        hostLine = Array("Host: \(config.url.hostHeader)\r\n".utf8)
        connectTimeoutNanos = UInt64(config.connectTimeout.nanoseconds)
        poolKey = "\(config.name)|\(config.url)|\(address.hostAndPort)|\(config.maxConnections)|\(config.maxIdle)"
    }
}
