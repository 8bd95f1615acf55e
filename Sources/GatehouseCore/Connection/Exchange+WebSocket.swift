import GatehouseConfig
import GatehouseHTTP
import GatehouseIO

/// A WebSocket handshake on a `websocket` route: checked at the route phase, forwarded with the
/// upgrade headers after every other phase passed, and on the upstream's 101 (its
/// `Sec-WebSocket-Accept` checked against the client's key) the connection becomes a tunnel.
extension Exchange {
    /// Called by the route phase on `websocket` routes. A request that is no upgrade goes on as
    /// plain HTTP; a malformed handshake is refused with 400.
    func prepareWebSocket(_ config: WebSocketConfig) -> GatewayError? {
        switch WebSocketHandshake.request(head) {
        case .notUpgrade:
            return nil
        case .invalid(let reason):
            keepAlive = false
            return GatewayError(.badRequest, reason)
        case .upgrade(let key, let offeredProtocols):
            let offered = WebSocketHandshake.negotiate(offered: offeredProtocols, configured: config.subprotocols)
            webSocket = WebSocketUpgrade(key: key, offered: offered, config: config,
                                         clientChoice: offeredProtocols.first { config.subprotocols.contains($0) })
            if let name = config.queryParameter, let query = head.query,
               let token = QueryParameter.find(Array(name.utf8), in: head.bytes, query: query) {
                // The token never travels further: the upstream gets the query without it.
                webSocket?.queryToken = token
                rewrite = UpstreamRewrite.replacingQuery(of: rewrite, with: token.queryRemoving(from: head.bytes, query: query))
            }
            keepAlive = false  // after the handshake the connection is no longer HTTP
            return nil
        }
    }

    /// The upstream answered the handshake with 101. False when it answered wrongly (the
    /// failure has been reported as a 502).
    @discardableResult
    func upstreamSwitchedProtocols(_ response: ResponseHead, _ upstream: UpstreamConnection) -> Bool {
        guard let webSocket, let route else { return false }
        upstreamStatus = 101
        let chosen: String?
        switch webSocket.answer(of: response) {
        case .invalid(let reason):
            fail(GatewayError(.upstreamError(upstreamStatus: 101), reason), outcome: .bad_response)
            return false
        case .accepted(let subprotocol):
            chosen = subprotocol
        }
        pool?.metrics.record(.success)
        status = 101
        timing.upstreamFinished = loop.now
        writeSwitchingProtocols(accept: WebSocketAccept.value(forKey: webSocket.key), subprotocol: chosen)
        self.upstream = nil
        stage = .done
        record()
        let tunnel = WebSocketTunnel(connection: connection, upstream: upstream, route: route, upgrade: webSocket,
                                     now: loop.now, unixNow: worker.unixSeconds)
        connection.beginTunnel(tunnel)
        return false
    }

    /// The gateway's 101 to the client: after the upstream's, or on its own for `connection_init`.
    func writeSwitchingProtocols(accept: String, subprotocol: String?) {
        connection.output.append("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ")
        connection.output.append(string: accept)
        if let subprotocol {
            connection.output.append("\r\nSec-WebSocket-Protocol: ")
            connection.output.append(string: subprotocol)
        }
        connection.output.append("\r\nX-Request-Id: ")
        connection.output.append(requestID)
        connection.output.append("\r\n\r\n")
    }
}
