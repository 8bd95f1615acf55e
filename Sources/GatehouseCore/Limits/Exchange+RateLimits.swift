/// The two limit stages of a request (see `RateLimitStage`). Each asks the route's store about
/// every limit of the stage at once; the request goes on only when all allow it.
extension Exchange: RateLimitWaiter {
    func checkRateLimits(_ stage: RateLimitStage) -> PhaseResult {
        guard let route, !route.rateLimits.isEmpty else { return .next }
        let limits = route.rateLimits.limits(for: stage)
        switch limits.count {
        case 0: return .next
        // The usual stage: one check and one decision, no arrays built for them.
        case 1: return checkOnlyRateLimit(of: limits, store: route.rateLimits.store)
        default: return checkRateLimits(limits, store: route.rateLimits.store)
        }
    }

    private var rateLimitKeyRequest: RateLimitKeyStrategy.Request {
        RateLimitKeyStrategy.Request(head: head, peer: connection.client.bytes, trustedProxies: snapshot.trustedProxies,
                                     identity: rateLimitProgress.identity)
    }

    /// A stage of one limit; `limits` holds just it, and is what a late answer is applied to.
    private func checkOnlyRateLimit(of limits: [CompiledRateLimit], store: RateLimitStore) -> PhaseResult {
        let limit = limits[0]
        // A `route` key needs nothing of the request: the key request is not even built.
        guard let check = limit.routeCheck ?? limit.check(for: rateLimitKeyRequest) else { return .next }
        switch store.decide(check, now: Int64(loop.now), waiter: self) {
        case .decided(let decision):
            let retryAfter = record(decision, of: limit)
            return verdict(retryAfter: retryAfter)
        case .unavailable:
            return .respond(Self.storeUnavailable)
        case .pending:
            return waitForStore(limits)
        }
    }

    private func checkRateLimits(_ limits: [CompiledRateLimit], store: RateLimitStore) -> PhaseResult {
        let request = rateLimitKeyRequest
        var checks: [RateLimitCheck] = []
        checks.reserveCapacity(limits.count)
        // The limits that apply, built only once one does not: usually every one does.
        var someApplied: [CompiledRateLimit]?
        for (index, limit) in limits.enumerated() {
            guard let check = limit.check(for: request) else {
                if someApplied == nil { someApplied = Array(limits[..<index]) }
                continue
            }
            checks.append(check)
            someApplied?.append(limit)
        }
        if checks.isEmpty { return .next }
        let applied = someApplied ?? limits
        switch store.decide(checks, now: Int64(loop.now), waiter: self) {
        case .decided(let decisions):
            return apply(decisions, of: applied)
        case .unavailable:
            return .respond(Self.storeUnavailable)
        case .pending:
            return waitForStore(applied)
        }
    }

    private func waitForStore(_ limits: [CompiledRateLimit]) -> PhaseResult {
        let answer = PendingAnswer()
        // No `onCancel` (a closure per request): an answer arriving after the wait was cancelled
        // finds it so in `endWait()` and is dropped.
        rateLimitProgress.pending = (answer, limits)
        return .wait(.answer(answer))
    }

    /// The wait a store's late answer ends, and the limits it asked about; nil when the wait was
    /// cancelled meanwhile (the client went away, a deadline passed), so nothing is recorded.
    private func endWait() -> (answer: PendingAnswer, limits: [CompiledRateLimit])? {
        guard let pending = rateLimitProgress.pending else { return nil }
        rateLimitProgress.pending = nil
        return pending.answer.isWaiting ? pending : nil
    }

    /// A store's late answer, on this exchange's loop: the waiting limit phase gets its verdict.
    func rateLimitsDecided(_ decisions: [GCRADecision]) {
        guard let (answer, limits) = endWait() else { return }
        answer.complete(apply(decisions, of: limits))
    }

    func rateLimitDecided(_ decision: GCRADecision) {
        guard let (answer, limits) = endWait() else { return }
        answer.complete(verdict(retryAfter: record(decision, of: limits[0])))
    }

    func rateLimitsUnavailable() {
        guard let (answer, _) = endWait() else { return }
        answer.complete(.respond(Self.storeUnavailable))
    }

    var storeClients: WorkerStores { worker.stores }

    /// A limit whose store is down with `on_failure: closed`: nothing was counted, so a retry is safe.
    static let storeUnavailable = GatewayError(.unavailable, "Rate limits cannot be checked right now; retry later.",
                                               source: .internal, retry: .safe)

    /// Records every decision and refuses when any limit refused, with the longest wait among them.
    private func apply(_ decisions: [GCRADecision], of limits: [CompiledRateLimit]) -> PhaseResult {
        var retryAfter = 0
        for (limit, decision) in zip(limits, decisions) { retryAfter = max(retryAfter, record(decision, of: limit)) }
        return verdict(retryAfter: retryAfter)
    }

    /// Counts a refusal and keeps the decision for the response's fields; the wait it asks for
    /// (zero when allowed).
    private func record(_ decision: GCRADecision, of limit: CompiledRateLimit) -> Int {
        rateLimitProgress.consider(limit, decision)
        if decision.allowed { return 0 }
        limit.refusals.atomicAdd(0, 1)
        return decision.retryAfterSeconds
    }

    /// Refuses when a limit of this stage asked for a wait. The response's `RateLimit` fields
    /// report the closest limit of both stages (`rateLimitProgress`), written with the head
    /// (`Exchange+ExtraFields.swift`).
    private func verdict(retryAfter: Int) -> PhaseResult {
        if retryAfter == 0 { return .next }
        return .respond(GatewayError(.rateLimited(retryAfterSeconds: retryAfter), "Too many requests; retry later."))
    }
}
