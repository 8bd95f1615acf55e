/// The two limit stages of a request (see `RateLimitStage`). Each asks the route's store about
/// every limit of the stage at once; the request goes on only when all allow it.
extension Exchange: RateLimitWaiter {
    /// Room for the longest usual key material (a provider name and a SHA-256 digest, or a
    /// subject) so building a key allocates once.
    static let keyMaterialCapacity = 96

    func checkRateLimits(_ stage: RateLimitStage) -> PhaseResult {
        guard let route, !route.rateLimits.isEmpty else { return .next }
        let limits = route.rateLimits.limits(for: stage)
        if limits.isEmpty { return .next }
        let request = RateLimitKeyStrategy.Request(head: head, peer: connection.client.bytes,
                                                   trustedProxies: snapshot.trustedProxies,
                                                   identity: rateLimitProgress.identity)
        var checks: [RateLimitCheck] = []
        var applied: [CompiledRateLimit] = []
        for limit in limits {
            var key = limit.namespace
            key.reserveCapacity(limit.namespace.count + Self.keyMaterialCapacity)
            guard limit.strategy.appendKey(to: &key, for: request) else { continue }
            checks.append(RateLimitCheck(gcra: limit.gcra, key: key))
            applied.append(limit)
        }
        if checks.isEmpty { return .next }
        switch route.rateLimits.store.decide(checks, now: Int64(loop.now), waiter: self) {
        case .decided(let decisions):
            return apply(decisions, of: applied)
        case .pending:
            // No store answers later yet. When one does, the phase machine parks the exchange
            // here and `rateLimitsDecided` resumes it; until then such an answer is a store failure.
            return .respond(GatewayError(.unavailable, "The rate-limit store did not answer."))
        }
    }

    /// A store's late answer. Only stores that return `.pending` call it, and none exists yet
    /// (see `checkRateLimits`): the phase machine resumes the request from here.
    func rateLimitsDecided(_ decisions: [GCRADecision]) {}

    /// Records every decision, sets the response's `RateLimit` fields, and refuses when any
    /// limit refused, with the longest wait among them.
    private func apply(_ decisions: [GCRADecision], of limits: [CompiledRateLimit]) -> PhaseResult {
        var retryAfter = 0
        for (limit, decision) in zip(limits, decisions) {
            rateLimitProgress.consider(limit, decision)
            if !decision.allowed {
                limit.refusals.atomicAdd(0, 1)
                retryAfter = max(retryAfter, decision.retryAfterSeconds)
            }
        }
        responseHeaderBlock = rateLimitProgress.headerBlock
        if retryAfter == 0 { return .next }
        return .respond(GatewayError(.rateLimited(retryAfterSeconds: retryAfter), "Too many requests; retry later."))
    }
}
