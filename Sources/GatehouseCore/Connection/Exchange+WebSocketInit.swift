import GatehouseHTTP
import GatehouseIO

/// `token_from: connection_init:FIELD`: a handshake without a token (no earlier source in
/// `token_from` held one) passes the other phases unauthenticated; the gateway then answers it
/// itself and hands the connection to a tunnel that waits for the token (`WebSocketTunnel+Init`).
/// The exchange stays with the tunnel as the record of the request: the upstream handshake is
/// written from it, and it is logged once the token has been judged.
extension Exchange {
    /// Called by the authentication phase on a refusal: true when the refusal only says that no
    /// token came and this handshake may bring one in its `connection_init`.
    func awaitsConnectionInit(insteadOf reason: AuthFailureCounter?) -> Bool {
        guard let upgrade = webSocket, let field = upgrade.config.connectionInitField,
              let reason, reason.index == AuthFailureCounter(.missing).index else { return false }
        webSocket?.credentials = .connectionInit(field: field)
        return true
    }

    /// The 101 with the accept value of the client's key and the subprotocol the gateway picked
    /// (the client's first that the route lists; none when none matches, as the upstream would
    /// answer), then the tunnel takes the connection and waits for `connection_init`.
    func acceptForConnectionInit(field: String) {
        guard let route, let upgrade = webSocket else { return }
        let narrowed = upgrade.offering(only: upgrade.clientChoice)
        webSocket = narrowed
        status = 101
        stage = .done
        writeSwitchingProtocols(accept: WebSocketAccept.value(forKey: narrowed.key), subprotocol: narrowed.clientChoice)
        let tunnel = WebSocketTunnel(connection: connection, awaitingInitOf: self, field: field, route: route,
                                     upgrade: narrowed, now: loop.now)
        connection.beginTunnel(tunnel)
    }

    /// The tunnel's verdict on the token: the exchange now carries what a header token would
    /// have given it, for the upstream handshake and the access log.
    func connectionInitPassed(subject: String?, claimHeaderBlock: [UInt8], validUntil: Int64?) {
        self.subject = subject
        self.claimHeaderBlock = claimHeaderBlock
        webSocket?.credentialsValidUntil = validUntil
    }
}
