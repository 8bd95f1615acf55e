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

    /// `RateLimit-Policy` and `RateLimit` lines for the closest limit; empty before any.
    var headerBlock: [UInt8] {
        guard let (limit, decision) = closest else { return [] }
        var block: [UInt8] = []
        block.reserveCapacity(limit.policyField.count + limit.limitFieldStart.count + Self.numbersAndSeparatorsCapacity)
        block.append(contentsOf: limit.policyField)
        block.append(contentsOf: limit.limitFieldStart)
        Self.appendDecimal(decision.remaining, to: &block)
        block.append(contentsOf: Self.resetSeparator)
        Self.appendDecimal(decision.resetSeconds, to: &block)
        block.append(contentsOf: Self.lineEnd)
        return block
    }

    private static let resetSeparator: [UInt8] = Array(";t=".utf8)
    private static let lineEnd: [UInt8] = [0x0D, 0x0A]

    /// Appends a non-negative integer in decimal, formatted on the stack and appended at once
    /// (this runs on every response of a limited route).
    private static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        let capacity = 20  // digits of Int.max
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { digits in
            var rest = value
            var start = capacity
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
