/// What the limits of one request have decided so far: the identity authentication found (for
/// the second stage) and the limit closest to exhaustion, whose state the response reports.
struct RateLimitProgress {
    var identity: AuthenticatedIdentity = .anonymous
    /// A stage whose store answers later: what the phase waits on, and the limits asked.
    var pending: (answer: PendingAnswer, limits: [CompiledRateLimit])?
    private(set) var closest: (limit: CompiledRateLimit, decision: GCRADecision)?

    /// Keeps `decision` when it is closer to exhaustion than the one kept: a refusal before an
    /// allowance, then the longer wait, then fewer remaining, then the longer time to full.
    mutating func consider(_ limit: CompiledRateLimit, _ decision: GCRADecision) {
        guard let kept = closest?.decision else {
            closest = (limit, decision)
            return
        }
        let rank = { (d: GCRADecision) in (d.allowed ? 1 : 0, -d.retryAfterSeconds, d.remaining, -d.resetSeconds) }
        if rank(decision) < rank(kept) { closest = (limit, decision) }
    }
}
