/// When a provider's remote key set is fetched next (README, "Identity providers"): after a
/// success, the response's `Cache-Control: max-age` clamped to `refresh.min…max`; after a failure,
/// a doubling backoff capped at `refresh.min` while the last good keys stay in use; and an unknown
/// `kid` may pull the next fetch forward, at most once per `refresh.min`, so a flood of random
/// `kid`s costs the identity provider nothing. Pure: times are monotonic nanoseconds passed in.
struct KeyRefreshSchedule: Sendable, Equatable {
    /// The first retry after a failed fetch; doubled per consecutive failure.
    static let firstBackoff: UInt64 = 1_000_000_000

    let minInterval: UInt64
    let maxInterval: UInt64

    /// When the next fetch is due; 0 means at once.
    private(set) var nextFetch: UInt64 = 0
    /// When the last fetch started (0: never), for the unknown-`kid` limit.
    private(set) var lastFetchStart: UInt64 = 0
    private(set) var consecutiveFailures = 0
    /// A fetch is running; nothing else starts one.
    private(set) var inFlight = false

    init(minInterval: UInt64, maxInterval: UInt64) {
        self.minInterval = minInterval
        self.maxInterval = max(minInterval, maxInterval)
    }

    /// True (and the fetch is marked started) when a fetch is due at `now`.
    mutating func startIfDue(now: UInt64) -> Bool {
        guard !inFlight, now >= nextFetch else { return false }
        inFlight = true
        lastFetchStart = now
        return true
    }

    /// An unknown `kid` was seen: true when that may make the next fetch run now, which is only
    /// when no fetch started within `refresh.min`.
    mutating func claimEarlyFetch(now: UInt64) -> Bool {
        guard !inFlight else { return false }
        guard lastFetchStart == 0 || now - lastFetchStart >= minInterval else { return false }
        nextFetch = now
        return true
    }

    /// A fetch succeeded; `maxAge` is the response's `Cache-Control: max-age` in seconds, if any.
    mutating func succeeded(now: UInt64, maxAgeSeconds: Int64?) {
        inFlight = false
        consecutiveFailures = 0
        nextFetch = now + interval(forMaxAge: maxAgeSeconds)
    }

    /// A fetch failed: retry after the backoff.
    mutating func failed(now: UInt64) {
        inFlight = false
        consecutiveFailures += 1
        nextFetch = now + backoff
    }

    /// `max-age` clamped to min…max; no `max-age` means the maximum.
    func interval(forMaxAge seconds: Int64?) -> UInt64 {
        guard let seconds else { return maxInterval }
        let requested = seconds <= 0 ? 0 : UInt64(min(seconds, Int64(UInt64.max / 1_000_000_000 / 2))) * 1_000_000_000
        return min(max(requested, minInterval), maxInterval)
    }

    /// 1 s, 2 s, 4 s, … capped at `refresh.min`.
    var backoff: UInt64 {
        let shift = min(consecutiveFailures - 1, 32)
        let grown = Self.firstBackoff << UInt64(max(shift, 0))
        return min(grown, max(minInterval, Self.firstBackoff))
    }
}
