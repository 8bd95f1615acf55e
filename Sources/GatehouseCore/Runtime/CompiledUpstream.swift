import GatehouseConfig
import GatehouseIO

/// An upstream resolved for the hot path.
public final class CompiledUpstream: Sendable {
    public let index: Int
    public let config: UpstreamConfig
    /// The endpoints' addresses as resolved when the configuration was compiled; the resolver
    /// thread posts newer lists to the workers when `resolve_interval` is set.
    public let addresses: [SocketAddress]
    /// What `addresses` were resolved from.
    let endpointNames: [EndpointName]
    /// "Host: …\r\n" as sent upstream.
    public let hostLine: [UInt8]
    public let connectTimeoutNanos: UInt64
    /// Pools survive a reload when this key is unchanged.
    public let poolKey: String
    /// For https upstreams: verification settings and client certificate.
    public let tlsContext: TLSContext?
    /// SNI and the name the certificate must carry.
    public let tlsServerName: String
    /// `retry.retriesAfterSend`, asked twice per request: worked out once (it walks the set).
    let retriesAfterSend: Bool

    init(index: Int, config: UpstreamConfig, addresses: [SocketAddress], tlsContext: TLSContext?) {
        self.tlsContext = tlsContext
        tlsServerName = config.tls?.serverName ?? config.url.host
        self.index = index
        self.config = config
        self.addresses = addresses
        endpointNames = EndpointName.names(of: config)
        hostLine = Array("Host: \(config.url.hostHeader)\r\n".utf8)
        connectTimeoutNanos = UInt64(config.connectTimeout.nanoseconds)
        retriesAfterSend = config.retry.retriesAfterSend
        // Endpoint changes are applied to a kept pool group, so addresses are not part of the key.
        poolKey = "\(config.name)|\(config.url)|\(config.maxConnections)|\(config.maxIdle)|\(config.balance)|"
            + String(describing: config.tls)
    }
}
