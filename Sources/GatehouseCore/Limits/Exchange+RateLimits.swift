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
        checks.reserveCapacity(limits.count)
        // The limits that apply, built only once one does not: usually every one does.
        var someApplied: [CompiledRateLimit]?
        for (index, limit) in limits.enumerated() {
            var key = limit.namespace
            key.reserveCapacity(limit.namespace.count + Self.keyMaterialCapacity)
            guard limit.strategy.appendKey(to: &key, for: request) else {
                if someApplied == nil { someApplied = Array(limits[..<index]) }
                continue
            }
            checks.append(RateLimitCheck(gcra: limit.gcra, key: key))
            someApplied?.append(limit)
        }
        if checks.isEmpty { return .next }
        let applied = someApplied ?? limits
        switch route.rateLimits.store.decide(checks, now: Int64(loop.now), waiter: self) {
        case .decided(let decisions):
            return apply(decisions, of: applied)
        case .unavailable:
            return .respond(Self.storeUnavailable)
        case .pending:
            let answer = PendingAnswer()
            rateLimitProgress.pending = (answer, applied)
            answer.onCancel = { [unowned(unsafe) self] in rateLimitProgress.pending = nil }
            return .wait(.answer(answer))
        }
    }

    /// A store's late answer, on this exchange's loop: the waiting limit phase gets its verdict.
    func rateLimitsDecided(_ decisions: [GCRADecision]) {
        guard let (answer, limits) = rateLimitProgress.pending else { return }
        rateLimitProgress.pending = nil
        answer.complete(apply(decisions, of: limits))
    }

    func rateLimitsUnavailable() {
        guard let (answer, _) = rateLimitProgress.pending else { return }
        rateLimitProgress.pending = nil
        answer.complete(.respond(Self.storeUnavailable))
    }

    var storeClients: WorkerStores { worker.stores }

    /// A limit whose store is down with `on_failure: closed`: nothing was counted, so a retry is safe.
    static let storeUnavailable = GatewayError(.unavailable, "Rate limits cannot be checked right now; retry later.",
                                               source: .internal, retry: .safe)

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
