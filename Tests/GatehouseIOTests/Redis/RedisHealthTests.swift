import Testing
@testable import GatehouseIO

/// When a store is marked down and when its connection is tried again, on a manual clock.
@Suite struct RedisHealthTests {
    static let ms: UInt64 = 1_000_000

    @Test func backoffDoublesFrom250msTo10s() {
        let schedule = (1...9).map { RedisBackoff.delay(afterFailedAttempts: $0) / Self.ms }
        #expect(schedule == [250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000])
    }

    /// One event per row: what happened, then whether the store is down and what changed.
    enum Event {
        case success, failure, markDown
    }

    static let rows: [(events: [Event], down: Bool, last: RedisHealth.Transition)] = [
        ([.failure], false, .none),
        ([.failure, .failure], false, .none),
        ([.failure, .failure, .failure], true, .wentDown),
        ([.failure, .failure, .failure, .failure], true, .none),
        ([.failure, .failure, .success, .failure, .failure], false, .none),  // not consecutive
        ([.failure, .failure, .failure, .success], false, .cameUp),
        ([.markDown], true, .wentDown),
        ([.markDown, .success], false, .cameUp),
        ([.success], false, .none),
    ]

    @Test(arguments: rows)
    func downAfterThreeFailuresInARowUpOnTheFirstSuccess(_ row: (events: [Event], down: Bool, last: RedisHealth.Transition)) {
        var health = RedisHealth()
        var last = RedisHealth.Transition.none
        for event in row.events {
            switch event {
            case .success: last = health.recordSuccess()
            case .failure: last = health.recordFailure()
            case .markDown: last = health.markDown()
            }
        }
        #expect(health.isDown == row.down)
        #expect(last == row.last)
    }

    @Test func connectionAttemptsBackOffAndASuccessResetsTheSchedule() {
        var health = RedisHealth()
        var now: UInt64 = 1_000 * Self.ms
        var retries: [UInt64] = []
        var transitions: [RedisHealth.Transition] = []
        for _ in 0..<4 {
            let (transition, retryAt) = health.connectionFailed(now: now)
            retries.append((retryAt - now) / Self.ms)
            transitions.append(transition)
            now = retryAt
        }
        #expect(retries == [250, 500, 1000, 2000])
        #expect(transitions == [.none, .none, .wentDown, .none])
        #expect(health.recordSuccess() == .cameUp)
        #expect((health.connectionFailed(now: now).retryAt - now) / Self.ms == 250)
    }
}
