/// Which stale entries may start their one background refresh (`stale_while_revalidate`): none
/// while one runs, and none for a while after one failed — the upstream refused, timed out or
/// sent nothing storable. Without that pause a failing upstream got a new refresh on the heels
/// of each failed one for as long as requests kept hitting the stale entry. The pause is 1 s
/// after a first failure, doubling to 30 s; a refresh that stores an entry ends it. Pure (the
/// caller's clock): `ResponseCache` holds one behind a mutex for the process.
struct CacheRefreshSchedule {
    static let firstPauseNanos: UInt64 = 1_000_000_000
    static let longestPauseNanos: UInt64 = 30_000_000_000
    /// Past this many keys, those whose time has passed are let go when a refresh fails.
    static let prunedAbove = 4096

    private struct Slot {
        /// The end of the running refresh (then it is taken as lost) or of the pause.
        var until: UInt64
        var failures: Int
    }

    private var slots: [CacheKey: Slot] = [:]

    var count: Int { slots.count }

    /// True when a refresh of `key` may start now; it then runs until `until` at the longest.
    mutating func begin(_ key: CacheKey, now: UInt64, until: UInt64) -> Bool {
        if let slot = slots[key], slot.until > now { return false }
        slots[key, default: Slot(until: until, failures: 0)].until = until
        return true
    }

    /// The refresh stored a fresh entry.
    mutating func succeeded(_ key: CacheKey) {
        slots.removeValue(forKey: key)
    }

    /// The refresh stored nothing: the next may start only after a pause.
    mutating func failed(_ key: CacheKey, now: UInt64) {
        let failures = (slots[key]?.failures ?? 0) + 1
        slots[key] = Slot(until: now + Self.pause(afterFailures: failures), failures: failures)
        if slots.count > Self.prunedAbove { slots = slots.filter { $0.value.until > now } }
    }

    static func pause(afterFailures failures: Int) -> UInt64 {
        let doublings = UInt64(min(max(failures - 1, 0), 5))
        return min(firstPauseNanos << doublings, longestPauseNanos)
    }
}
