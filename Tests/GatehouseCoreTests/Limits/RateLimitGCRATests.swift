import Testing
@testable import GatehouseCore

/// The GCRA on a manual clock: each row is a limit and a sequence of requests, with the exact
/// decision expected for each.
struct RateLimitGCRATests {
    /// One request: when (milliseconds on the manual clock) and what the limit must answer.
    struct Step: Sendable {
        var atMillis: Int64
        var allowed: Bool
        var remaining: Int
        var resetSeconds: Int
        var retryAfter: Int = 0
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var count: Int
        var windowSeconds: Int
        var burst: Int
        var steps: [Step]
        var testDescription: String { name }
    }

    static func allowed(_ at: Int64, r: Int, t: Int) -> Step { Step(atMillis: at, allowed: true, remaining: r, resetSeconds: t) }
    static func refused(_ at: Int64, t: Int, retry: Int) -> Step {
        Step(atMillis: at, allowed: false, remaining: 0, resetSeconds: t, retryAfter: retry)
    }

    static let rows: [Row] = [
        Row(name: "10/s burst 5: five at once, then one per 100 ms", count: 10, windowSeconds: 1, burst: 5, steps: [
            allowed(0, r: 4, t: 1), allowed(0, r: 3, t: 1), allowed(0, r: 2, t: 1), allowed(0, r: 1, t: 1),
            allowed(0, r: 0, t: 1),
            refused(0, t: 1, retry: 1), refused(99, t: 1, retry: 1),
            allowed(100, r: 0, t: 1), refused(150, t: 1, retry: 1), allowed(200, r: 0, t: 1),
        ]),
        Row(name: "10/m burst 5: the README's example, t counts down to full", count: 10, windowSeconds: 60, burst: 5, steps: [
            allowed(0, r: 4, t: 6), allowed(0, r: 3, t: 12), allowed(0, r: 2, t: 18), allowed(0, r: 1, t: 24),
            allowed(0, r: 0, t: 30),
            refused(0, t: 30, retry: 6), refused(5_500, t: 25, retry: 1),
            allowed(6_000, r: 0, t: 30),
        ]),
        Row(name: "burst defaults to the count: 3/s allows 3 at once", count: 3, windowSeconds: 1, burst: 3, steps: [
            allowed(0, r: 2, t: 1), allowed(0, r: 1, t: 1), allowed(0, r: 0, t: 1), refused(0, t: 1, retry: 1),
        ]),
        Row(name: "recovery: one slot back per emission interval", count: 2, windowSeconds: 1, burst: 2, steps: [
            allowed(0, r: 1, t: 1), allowed(0, r: 0, t: 1), refused(0, t: 1, retry: 1),
            allowed(500, r: 0, t: 1), allowed(1_500, r: 1, t: 1), allowed(1_500, r: 0, t: 1),
            refused(1_500, t: 1, retry: 1),
        ]),
        Row(name: "retry-after rounds up to whole seconds", count: 1, windowSeconds: 3600, burst: 1, steps: [
            allowed(0, r: 0, t: 3600), refused(1, t: 3600, retry: 3600), refused(3_598_999, t: 2, retry: 2),
            refused(3_599_500, t: 1, retry: 1), allowed(3_600_000, r: 0, t: 3600),
        ]),
        Row(name: "long idle: a full burst again, never more", count: 10, windowSeconds: 1, burst: 2, steps: [
            allowed(0, r: 1, t: 1), allowed(0, r: 0, t: 1), refused(0, t: 1, retry: 1),
            allowed(86_400_000, r: 1, t: 1), allowed(86_400_000, r: 0, t: 1), refused(86_400_000, t: 1, retry: 1),
        ]),
        Row(name: "a clock read earlier than the last grants nothing", count: 1, windowSeconds: 1, burst: 1, steps: [
            allowed(10_000, r: 0, t: 1), refused(5_000, t: 6, retry: 6), refused(10_500, t: 1, retry: 1),
            allowed(11_000, r: 0, t: 1),
        ]),
    ]

    @Test(arguments: rows)
    func decisions(_ row: Row) {
        let gcra = GCRA(count: row.count, windowSeconds: row.windowSeconds, burst: row.burst)
        var tat: Int64?
        for (index, step) in row.steps.enumerated() {
            let (decision, newTAT) = gcra.decide(tat: tat, now: step.atMillis * 1_000_000)
            tat = newTAT
            let expected = GCRADecision(allowed: step.allowed, remaining: step.remaining, resetSeconds: step.resetSeconds,
                                        retryAfterSeconds: step.retryAfter)
            #expect(decision == expected, "step \(index) at \(step.atMillis) ms")
        }
    }

    /// 10/s with burst 5, one request every millisecond for 10 s: the burst plus one per 100 ms.
    @Test func exactAllowanceOverTenSeconds() {
        let gcra = GCRA(count: 10, windowSeconds: 1, burst: 5)
        var tat: Int64?
        var allowed = 0
        for millis in Int64(0)..<10_000 {
            let (decision, newTAT) = gcra.decide(tat: tat, now: millis * 1_000_000)
            tat = newTAT
            if decision.allowed { allowed += 1 }
        }
        #expect(allowed == 5 + 99)
    }

    @Test func emissionIntervalAndTolerance() {
        let gcra = GCRA(count: 10, windowSeconds: 60, burst: 5)
        #expect(gcra.emissionInterval == 6_000_000_000)
        #expect(gcra.tolerance == 24_000_000_000)
        #expect(gcra.refund(tat: 30_000_000_000) == 24_000_000_000)
    }
}
