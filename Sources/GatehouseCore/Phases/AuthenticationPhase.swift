/// The route's `auth`: any one of its providers suffices (README, "The two doors"). A refusal
/// is counted by reason for `gatehouse_auth_failures_total`.
enum AuthenticationPhase {
    /// `mayWait` is false when the request already waited for a key refetch.
    static func run(_ exchange: Exchange, mayWait: Bool = true) -> PhaseResult {
        // `auth: none` passes with nothing to set: the exchange starts anonymous, with no
        // subject, claim headers or token parameter (and needs no clock reading).
        guard let route = exchange.route, !route.auth.providers.isEmpty else { return .next }
        let worker = exchange.worker
        let queryToken = exchange.webSocket.flatMap { $0.queryToken?.value }
        switch route.auth.authenticate(exchange.head, now: worker.unixSeconds, mayWait: mayWait,
                                       caches: worker.tokenCache, queryToken: queryToken) {
        case .passed(let subject, let headerBlock, let identity, let tokenQueryParameter, let validUntil):
            exchange.tokenQueryParameter = tokenQueryParameter
            exchange.subject = subject
            exchange.webSocket?.credentialsValidUntil = validUntil
            exchange.rateLimitProgress.identity = identity  // for the limits after authentication
            exchange.claimHeaderBlock = headerBlock
            return .next
        case .awaitingKeys(let source, let error, let reason):
            // An unknown kid: wait for the refetch it started or found running, if one is.
            if let answer = worker.keyWaits.wait(for: source, retry: { [unowned(unsafe) exchange] in
                run(exchange, mayWait: false)
            }) {
                return .wait(.answer(answer))
            }
            return refuse(error, reason, route: route, worker: worker)
        case .refused(let error, let reason):
            // No token in the handshake: on a `connection_init:FIELD` route it comes after the 101.
            if exchange.awaitsConnectionInit(insteadOf: reason) { return .next }
            return refuse(error, reason, route: route, worker: worker)
        }
    }

    static func refuse(_ error: GatewayError, _ reason: AuthFailureCounter?, route: CompiledRoute,
                               worker: Worker) -> PhaseResult {
        if let reason { worker.routeMetrics(for: route).authFailures.add(reason.index) }
        return .respond(error)
    }
}
