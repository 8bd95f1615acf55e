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
            webSocket = WebSocketUpgrade(key: key, offered: offered, config: config)
            if let name = config.queryParameter, let query = head.query,
               let token = QueryParameter.find(Array(name.utf8), in: head.bytes, query: query) {
                // The token never travels further: the upstream gets the query without it.
                webSocket?.queryToken = token
                var rewritten = rewrite ?? UpstreamRewrite()
                rewritten.query = token.queryRemoving(from: head.bytes, query: query)
                rewrite = rewritten
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
        guard let upgrade = response.headerValue(named: HeaderNames.upgrade),
              WebSocketHandshake.listContains(response.bytes[upgrade], "websocket"),
              let accept = response.headerValue(named: "sec-websocket-accept"),
              WebSocketAccept.matches(WebSocketHandshake.trimmed(response.bytes[accept]), key: webSocket.key) else {
            fail(GatewayError(.upstreamError(upstreamStatus: 101), "The upstream's WebSocket handshake answer is not valid."),
                 outcome: .bad_response)
            return false
        }
        var chosen: String?
        if let range = response.headerValue(named: "sec-websocket-protocol") {
            let name = String(decoding: WebSocketHandshake.trimmed(response.bytes[range]), as: UTF8.self)
            guard webSocket.offered.contains(name) else {
                fail(GatewayError(.upstreamError(upstreamStatus: 101), "The upstream chose a subprotocol that was not offered."),
                     outcome: .bad_response)
                return false
            }
            chosen = name
        }
        pool?.metrics.record(.success)
        status = 101
        timing.upstreamFinished = MonotonicClock.nanoseconds
        writeSwitchingProtocols(accept: response.bytes[accept], subprotocol: chosen)
        self.upstream = nil
        stage = .done
        record()
        let tunnel = WebSocketTunnel(connection: connection, upstream: upstream, route: route, upgrade: webSocket,
                                     now: loop.now, unixNow: worker.unixSeconds)
        connection.beginTunnel(tunnel)
        return false
    }

    private func writeSwitchingProtocols(accept: ArraySlice<UInt8>, subprotocol: String?) {
        connection.output.append("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ")
        connection.output.append(WebSocketHandshake.trimmed(accept))
        if let subprotocol {
            connection.output.append("\r\nSec-WebSocket-Protocol: ")
            connection.output.append(string: subprotocol)
        }
        connection.output.append("\r\nX-Request-Id: ")
        connection.output.append(string: requestID)
        connection.output.append("\r\n\r\n")
    }
}
