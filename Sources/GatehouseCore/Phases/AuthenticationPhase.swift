/// The route's `auth`: any one of its providers suffices (README, "The two doors"). A refusal
/// is counted by reason for `gatehouse_auth_failures_total`.
enum AuthenticationPhase {
    static func run(_ exchange: Exchange) -> PhaseResult {
        guard let route = exchange.route else { return .next }
        let worker = exchange.worker
        let queryToken = exchange.webSocket.flatMap { $0.queryToken?.value }
        switch route.auth.authenticate(exchange.head, now: worker.unixSeconds, caches: worker.tokenCache,
                                       queryToken: queryToken) {
        case .passed(let subject, let headerBlock, let identity, let validUntil):
            exchange.subject = subject
            exchange.webSocket?.credentialsValidUntil = validUntil
            exchange.rateLimitProgress.identity = identity  // for the limits after authentication
            exchange.claimHeaderBlock = headerBlock
            return .next
        case .refused(let error, let reason):
            if let reason { worker.routeMetrics(for: route).authFailures.add(reason.index) }
            return .respond(error)
        }
    }
}
