import Testing
@testable import GatehouseCore

/// One background refresh per key at a time, and a pause after one that stored nothing, on a
/// manual clock (nanoseconds).
@Suite struct CacheRefreshScheduleTests {
    static let second: UInt64 = 1_000_000_000
    static let timeout = 5 * second

    @Test func oneRefreshAtATimeUntilTheRunningOneIsTakenAsLost() {
        var schedule = CacheRefreshSchedule()
        let key = CacheKey.named("k")
        let started = [
            schedule.begin(key, now: 0, until: Self.timeout),
            schedule.begin(key, now: Self.second, until: Self.second + Self.timeout),
            schedule.begin(CacheKey.named("other"), now: Self.second, until: Self.timeout),
            // Never ended: lost at its deadline, and another may start.
            schedule.begin(key, now: Self.timeout, until: 2 * Self.timeout),
        ]
        #expect(started == [true, false, true, true])
    }

    @Test func aStoredRefreshLetsTheNextStartAtOnce() {
        var schedule = CacheRefreshSchedule()
        let key = CacheKey.named("k")
        let first = schedule.begin(key, now: 0, until: Self.timeout)
        schedule.succeeded(key)
        let count = schedule.count
        let next = schedule.begin(key, now: 1, until: Self.timeout)
        #expect(first && count == 0 && next)
    }

    /// After each failure the next refresh waits 1 s, 2 s, 4 s … and never more than 30 s.
    @Test(arguments: [(1, 1), (2, 2), (3, 4), (4, 8), (5, 16), (6, 30), (7, 30), (40, 30)] as [(Int, UInt64)])
    func failuresInARowPauseLonger(_ failures: Int, _ pauseSeconds: UInt64) {
        var schedule = CacheRefreshSchedule()
        let key = CacheKey.named("k")
        var failedAt: UInt64 = 0
        var started: [Bool] = []
        for failure in 1...failures {
            started.append(schedule.begin(key, now: failedAt, until: failedAt + Self.timeout))
            schedule.failed(key, now: failedAt)
            if failure < failures { failedAt += CacheRefreshSchedule.pause(afterFailures: failure) }
        }
        let resumes = failedAt + pauseSeconds * Self.second
        started.append(schedule.begin(key, now: resumes - 1, until: resumes + Self.timeout))
        started.append(schedule.begin(key, now: resumes, until: resumes + Self.timeout))
        #expect(started == Array(repeating: true, count: failures) + [false, true])
    }

    @Test func aSuccessAfterFailuresStartsTheCountAgain() {
        var schedule = CacheRefreshSchedule()
        let key = CacheKey.named("k")
        var started = [schedule.begin(key, now: 0, until: Self.timeout)]
        schedule.failed(key, now: 0)  // a first failure: 1 s
        started.append(schedule.begin(key, now: Self.second, until: Self.second + Self.timeout))
        schedule.failed(key, now: Self.second)  // a second: 2 s
        started.append(schedule.begin(key, now: 3 * Self.second, until: 3 * Self.second + Self.timeout))
        schedule.succeeded(key)
        started.append(schedule.begin(key, now: 3 * Self.second, until: 3 * Self.second + Self.timeout))
        schedule.failed(key, now: 3 * Self.second)  // a first failure again: 1 s
        started.append(schedule.begin(key, now: 4 * Self.second, until: 4 * Self.second + Self.timeout))
        #expect(started == [true, true, true, true, true])
    }

    /// Keys paused long ago are let go once many have piled up, so the schedule stays bounded.
    @Test func pausedKeysWhoseTimePassedArePruned() {
        var schedule = CacheRefreshSchedule()
        for index in 0..<CacheRefreshSchedule.prunedAbove {
            schedule.failed(CacheKey.named("old \(index)"), now: 0)
        }
        let piledUp = schedule.count
        schedule.failed(CacheKey.named("new"), now: 10 * Self.second)
        #expect(piledUp == CacheRefreshSchedule.prunedAbove && schedule.count == 1)
    }
}
