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

    /// `RateLimit-Policy` and `RateLimit` lines for the closest limit; empty before any. Written
    /// in one pass into one allocation: this runs on every response of a limited route.
    var headerBlock: [UInt8] {
        guard let (limit, decision) = closest else { return [] }
        let fixed = limit.policyField.count + limit.limitFieldStart.count + Self.resetSeparator.count + Self.lineEnd.count
        return [UInt8](unsafeUninitializedCapacity: fixed + 2 * Self.maximumDigits) { buffer, written in
            var at = 0
            func copy(_ bytes: [UInt8]) {
                bytes.withUnsafeBufferPointer { source in
                    UnsafeMutableRawPointer(buffer.baseAddress! + at).copyMemory(from: source.baseAddress!, byteCount: source.count)
                }
                at += bytes.count
            }
            func decimal(_ value: Int) {
                // Digits counted first, then written from the last: no scratch, no reversal.
                var digits = 1
                var rest = value
                while rest >= 10 {
                    rest /= 10
                    digits += 1
                }
                rest = value
                for position in stride(from: at + digits - 1, through: at, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                at += digits
            }
            copy(limit.policyField)
            copy(limit.limitFieldStart)
            decimal(max(0, decision.remaining))
            copy(Self.resetSeparator)
            decimal(max(0, decision.resetSeconds))
            copy(Self.lineEnd)
            written = at
        }
    }

    private static let resetSeparator: [UInt8] = Array(";t=".utf8)
    private static let lineEnd: [UInt8] = [0x0D, 0x0A]
    /// Digits of the largest Int.
    private static let maximumDigits = 19
}
