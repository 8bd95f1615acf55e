import Testing
@testable import GatehouseCore

/// When remote keys are fetched, on a manual clock (nanoseconds).
@Suite struct KeyRefreshScheduleTests {
    static let second: UInt64 = 1_000_000_000
    static func schedule(min: UInt64 = 60, max: UInt64 = 86_400) -> KeyRefreshSchedule {
        KeyRefreshSchedule(minInterval: min * second, maxInterval: max * second)
    }

    /// Mutating calls outside `#expect`, which cannot take them.
    static func starts(_ schedule: inout KeyRefreshSchedule, now: UInt64) -> Bool { schedule.startIfDue(now: now) }
    static func claims(_ schedule: inout KeyRefreshSchedule, now: UInt64) -> Bool { schedule.claimEarlyFetch(now: now) }

    // max-age -> next fetch after, with refresh {min: 60s, max: 1h}
    @Test(arguments: [
        (nil, 3600), (0, 60), (-5, 60), (30, 60), (60, 60), (300, 300), (3600, 3600), (86_400, 3600),
        (Int64.max, 3600),
    ] as [(Int64?, UInt64)])
    func maxAgeIsClampedToMinAndMax(maxAge: Int64?, expectedSeconds: UInt64) {
        #expect(Self.schedule(min: 60, max: 3600).interval(forMaxAge: maxAge) == expectedSeconds * Self.second)
    }

    @Test func firstFetchIsDueAtOnceAndOnlyOneRuns() {
        var schedule = Self.schedule()
        #expect(Self.starts(&schedule, now: 5 * Self.second))
        #expect(!Self.starts(&schedule, now: 5 * Self.second))
        schedule.succeeded(now: 6 * Self.second, maxAgeSeconds: 120)
        #expect(!Self.starts(&schedule, now: 125 * Self.second))
        #expect(Self.starts(&schedule, now: 126 * Self.second))
    }

    @Test func unknownKidsRefetchAtMostOncePerMin() {
        var schedule = Self.schedule(min: 60)
        let start = 1000 * Self.second
        #expect(Self.starts(&schedule, now: start))
        schedule.succeeded(now: start, maxAgeSeconds: nil)
        var granted = 0
        // 10,000 unknown kids over 150 s: one refetch per 60 s at most.
        for step in 0..<10_000 {
            let now = start + UInt64(step) * 15 * Self.second / 1000
            if schedule.claimEarlyFetch(now: now), schedule.startIfDue(now: now) {
                granted += 1
                schedule.succeeded(now: now, maxAgeSeconds: nil)
            }
        }
        #expect(granted == 2)  // at 60 s and 120 s
    }

    @Test func noEarlyFetchWhileOneRuns() {
        var schedule = Self.schedule(min: 1)
        #expect(Self.starts(&schedule, now: 10 * Self.second))
        #expect(!Self.claims(&schedule, now: 20 * Self.second))
    }

    @Test func failuresBackOffDoublingUpToMin() {
        var schedule = Self.schedule(min: 10)
        var now: UInt64 = 0
        var waits: [UInt64] = []
        for _ in 0..<6 {
            #expect(Self.starts(&schedule, now: now))
            schedule.failed(now: now)
            waits.append((schedule.nextFetch - now) / Self.second)
            now = schedule.nextFetch
        }
        #expect(waits == [1, 2, 4, 8, 10, 10])
        #expect(Self.starts(&schedule, now: now))
        schedule.succeeded(now: now, maxAgeSeconds: 20)
        #expect(schedule.consecutiveFailures == 0)
        #expect(schedule.nextFetch == now + 20 * Self.second)
    }

    @Test(arguments: [
        ("max-age=300", 300), ("public, max-age=300", 300), ("MAX-AGE=5, must-revalidate", 5),
        ("max-age=\"42\"", 42), ("no-cache", 0), ("no-store, max-age=300", 0), ("private", nil),
        ("max-age=", nil), ("max-age=abc", nil), ("max-age=99999999999999999999", Int64(Int32.max)), ("", nil),
    ] as [(String, Int64?)])
    func cacheControlMaxAge(value: String, expected: Int64?) {
        #expect(CacheControlMaxAge.parse(value) == expected)
    }
}
