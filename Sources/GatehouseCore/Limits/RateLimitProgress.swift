import GatehouseHTTP

/// What the limits of one request have decided so far: the identity authentication found (for
/// the second stage) and the limit closest to exhaustion, whose state the response reports.
struct RateLimitProgress {
    /// Room for two decimal numbers and the separators between them in the `RateLimit` line.
    static let numbersAndSeparatorsCapacity = 32
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

    /// `RateLimit-Policy` and `RateLimit` lines for the closest limit; empty before any. One
    /// allocation: this runs on every response of a limited route.
    var headerBlock: [UInt8] {
        guard let (limit, decision) = closest else { return [] }
        var block: [UInt8] = []
        block.reserveCapacity(limit.policyField.count + limit.limitFieldStart.count + Self.numbersAndSeparatorsCapacity)
        block.append(contentsOf: limit.policyField)
        block.append(contentsOf: limit.limitFieldStart)
        block.append(decimal: decision.remaining)
        block.append(ascii: ";t=")
        block.append(decimal: decision.resetSeconds)
        block.append(ascii: "\r\n")
        return block
    }
}
