/// `routes[i].websocket:` — the route accepts WebSocket upgrades and tunnels them to its upstream.
public struct WebSocketConfig: Sendable, Equatable {
    /// Where the route's auth finds the token of a WebSocket client.
    public enum TokenSource: Sendable, Equatable {
        /// `header`: the route's auth as for any request (Authorization, API-key header…).
        case header
        /// `query:NAME`: a query parameter, removed from the URL forwarded and never logged.
        case query(String)
        /// `connection_init:FIELD`: `payload.FIELD` of the client's first graphql-ws message; the
        /// gateway answers the handshake itself and opens the upstream socket only after it.
        case connectionInit(String)
    }

    /// Offered to the upstream in this order. Default: graphql-transport-ws, then graphql-ws.
    public var subprotocols: [String] = ["graphql-transport-ws", "graphql-ws"]
    public var tokenFrom: [TokenSource] = [.header]
    public var initTimeout: Duration = .seconds(10)
    public var maxMessageSize = 1024 * 1024
    public var idleTimeout: Duration = .seconds(5 * 60)
    public var maxLifetime: Duration = .seconds(24 * 60 * 60)
    /// Close with 4403 when the verified token's `exp` (plus the provider's leeway) passes.
    public var closeOnExpiry = true

    public init() {}

    /// The `connection_init` field, when the token may arrive there.
    public var connectionInitField: String? {
        for source in tokenFrom {
            if case .connectionInit(let field) = source { return field }
        }
        return nil
    }

    /// The query parameter, when the token may arrive there.
    public var queryParameter: String? {
        for source in tokenFrom {
            if case .query(let name) = source { return name }
        }
        return nil
    }
}
