import GatehouseConfig
import GatehouseHTTP

/// What an exchange knows about the WebSocket handshake it carries: the client's key (the
/// upstream's `Sec-WebSocket-Accept` must answer it), the subprotocols offered upstream, the
/// header lines that ask the upstream for the upgrade, and how long the verified credentials last.
/// A class: every exchange holds an optional one, and an absent object costs nothing to drop,
/// where an absent struct of this size cost every request an outlined check.
final class WebSocketUpgrade {
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
    /// Where the tunnel's credentials come from.
    var credentials: Credentials = .handshake
    /// The first subprotocol the client offered that the route lists, in the client's order: what
    /// the gateway picks when it answers the handshake itself (`connection_init`).
    let clientChoice: String?

    enum Credentials {
        /// Verified on the handshake (header, query), or none needed.
        case handshake
        /// Not in the handshake: `payload.FIELD` of the client's `connection_init`, after the 101.
        case connectionInit(field: String)
    }

    init(key: [UInt8], offered: [String], config: WebSocketConfig, clientChoice: String? = nil) {
        self.key = key
        self.offered = offered
        self.config = config
        self.clientChoice = clientChoice
        var block = Array("Connection: Upgrade\r\nUpgrade: websocket\r\n".utf8)
        if !offered.isEmpty { block.append(contentsOf: "Sec-WebSocket-Protocol: \(offered.joined(separator: ", "))\r\n".utf8) }
        upstreamHeaderBlock = block
    }
}

extension WebSocketUpgrade {
    enum UpstreamAnswer: Equatable {
        /// A valid 101; `subprotocol` is the one the upstream chose, if any.
        case accepted(subprotocol: String?)
        case invalid(String)
    }

    /// Whether the upstream's 101 answers this handshake: `Upgrade: websocket`, the
    /// `Sec-WebSocket-Accept` of the key sent, and a subprotocol only from those offered.
    func answer(of response: ResponseHead) -> UpstreamAnswer {
        guard let upgrade = response.headerValue(named: HeaderNames.upgrade),
              WebSocketHandshake.listContains(response.bytes[upgrade], "websocket"),
              let accept = response.headerValue(named: "sec-websocket-accept"),
              WebSocketAccept.matches(WebSocketHandshake.trimmed(response.bytes[accept]), key: key) else {
            return .invalid("The upstream's WebSocket handshake answer is not valid.")
        }
        guard let range = response.headerValue(named: "sec-websocket-protocol") else { return .accepted(subprotocol: nil) }
        let name = String(decoding: WebSocketHandshake.trimmed(response.bytes[range]), as: UTF8.self)
        guard offered.contains(name) else { return .invalid("The upstream chose a subprotocol that was not offered.") }
        return .accepted(subprotocol: name)
    }

    /// The handshake the gateway answered itself goes upstream offering only the subprotocol it
    /// gave the client (or none).
    func offering(only subprotocol: String?) -> WebSocketUpgrade {
        let narrowed = WebSocketUpgrade(key: key, offered: subprotocol.map { [$0] } ?? [], config: config, clientChoice: subprotocol)
        narrowed.queryToken = queryToken
        narrowed.credentials = credentials
        return narrowed
    }
}
