/// The generic cell rate algorithm for one limit: `count` requests per `window`, `burst` of
/// them at once. A pure value: the state of a key is one number, its theoretical arrival time
/// (TAT), and `now` is passed in, so tests run it on a manual clock.
///
/// Each allowed request moves the key's TAT one emission interval T = window / count later,
/// starting from `now` when the TAT is in the past. A request is allowed while the new TAT is at
/// most τ + T ahead of `now`, with tolerance τ = T · (burst − 1): `burst` requests pass at once,
/// then one every T. A TAT at or before `now` means the full burst is available again, which is
/// why such state can be forgotten.
public struct GCRA: Sendable, Hashable {
    static let nanosPerSecond: Int64 = 1_000_000_000

    /// T, in nanoseconds.
    public let emissionInterval: Int64
    /// τ, in nanoseconds.
    public let tolerance: Int64

    public init(count: Int, windowSeconds: Int, burst: Int) {
        precondition(count > 0 && windowSeconds > 0 && burst > 0, "limits are validated by the config decoder")
        emissionInterval = Int64(windowSeconds) * Self.nanosPerSecond / Int64(count)
        tolerance = emissionInterval * Int64(burst - 1)
    }

    /// The decision for one request given the key's stored TAT (nil: never seen or forgotten),
    /// and the TAT to store (unchanged when refused).
    public func decide(tat storedTAT: Int64?, now: Int64) -> (decision: GCRADecision, tat: Int64) {
        let tat = max(storedTAT ?? now, now)
        let newTAT = tat + emissionInterval
        if newTAT - now > tolerance + emissionInterval {
            // Allowed again once `now` reaches tat − τ.
            let wait = tat - tolerance - now
            return (GCRADecision(allowed: false, remaining: 0, resetSeconds: Self.wholeSeconds(tat - now),
                                 retryAfterSeconds: max(1, Self.wholeSeconds(wait))), storedTAT ?? now)
        }
        return (GCRADecision(allowed: true, remaining: remaining(tat: newTAT, now: now),
                             resetSeconds: Self.wholeSeconds(newTAT - now), retryAfterSeconds: 0), newTAT)
    }

    /// The TAT before an allowed request, for a store that takes back a request another limit
    /// of the same stage refused.
    public func refund(tat: Int64) -> Int64 { tat - emissionInterval }

    /// Requests that would still pass at `now` with the key at `tat`.
    func remaining(tat: Int64, now: Int64) -> Int {
        let headroom = tolerance + emissionInterval - (tat - now)
        return headroom <= 0 ? 0 : Int(headroom / emissionInterval)
    }

    /// Nanoseconds as whole seconds, rounded up (a client waiting that long is never early).
    static func wholeSeconds(_ nanos: Int64) -> Int {
        nanos <= 0 ? 0 : Int((nanos + nanosPerSecond - 1) / nanosPerSecond)
    }
}
