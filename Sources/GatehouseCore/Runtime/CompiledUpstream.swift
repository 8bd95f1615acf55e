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
    /// For https upstreams: verification settings and client certificate.
    public let tlsContext: TLSContext?
    /// SNI and the name the certificate must carry.
    public let tlsServerName: String

    init(index: Int, config: UpstreamConfig, address: SocketAddress, tlsContext: TLSContext?) {
        self.tlsContext = tlsContext
        tlsServerName = config.tls?.serverName ?? config.url.host
        self.index = index
        self.config = config
        self.address = address
        hostLine = Array("Host: \(config.url.hostHeader)\r\n".utf8)
        connectTimeoutNanos = UInt64(config.connectTimeout.nanoseconds)
        poolKey = "\(config.name)|\(config.url)|\(address.hostAndPort)|\(config.maxConnections)|\(config.maxIdle)|"
            + String(describing: config.tls)
    }
}
