import GatehouseConfig
import GatehouseHTTP

/// What an exchange knows about the WebSocket handshake it carries: the client's key (the
/// upstream's `Sec-WebSocket-Accept` must answer it), the subprotocols offered upstream, the
/// header lines that ask the upstream for the upgrade, and how long the verified credentials last.
struct WebSocketUpgrade {
    let key: [UInt8]
    /// The configured subprotocols the client offered, in the configured order.
    let offered: [String]
    /// `Connection: Upgrade`, `Upgrade: websocket` and `Sec-WebSocket-Protocol` lines for the
    /// upstream request (the client's `Sec-WebSocket-Key` and `-Version` are forwarded as sent).
    let upstreamHeaderBlock: [UInt8]
    let config: WebSocketConfig
    /// Unix seconds: the verified token's `exp` plus leeway; nil when the credentials do not expire.
    var credentialsValidUntil: Int64?
    /// `token_from: query:NAME`: the token's pair in the request's query string.
    var queryToken: QueryParameter?

    init(key: [UInt8], offered: [String], config: WebSocketConfig) {
        self.key = key
        self.offered = offered
        self.config = config
        var block = Array("Connection: Upgrade\r\nUpgrade: websocket\r\n".utf8)
        if !offered.isEmpty { block.append(contentsOf: "Sec-WebSocket-Protocol: \(offered.joined(separator: ", "))\r\n".utf8) }
        upstreamHeaderBlock = block
    }
}
