import Glibc
import Testing
@testable import GatehouseIO

/// The doorbell a sleeping thread is woken with: a ring ends a sleep early, a ring that came
/// first is not lost, and an unrung sleep ends at its timeout.
@Suite struct DoorbellTests {
    @Test func aRingBeforeTheSleepEndsItAtOnce() {
        let bell = Doorbell()
        bell.ring()
        let started = MonotonicClock.nanoseconds
        #expect(bell.sleep(nanoseconds: 10_000_000_000))
        #expect(MonotonicClock.nanoseconds - started < 1_000_000_000)
    }

    @Test func manyRingsWakeOneSleepAndAreThenSpent() {
        let bell = Doorbell()
        bell.ring()
        bell.ring()
        #expect(bell.sleep(nanoseconds: 1_000_000_000))
        #expect(!bell.sleep(nanoseconds: 1_000_000))
    }

    @Test func anUnrungSleepEndsAtItsTimeout() {
        let bell = Doorbell()
        let started = MonotonicClock.nanoseconds
        #expect(!bell.sleep(nanoseconds: 20_000_000))
        #expect(MonotonicClock.nanoseconds - started >= 19_000_000)
    }

    @Test func aRingFromAnotherThreadWakesASleepWithNoTimeout() {
        let bell = Doorbell()
        let ringer = WorkerThread.start(name: "doorbell-test") {
            usleep(20_000)
            bell.ring()
        }
        #expect(bell.sleep(nanoseconds: nil))
        WorkerThread.join(ringer)
    }
}
