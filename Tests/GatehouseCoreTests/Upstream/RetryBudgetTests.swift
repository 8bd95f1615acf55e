import Testing
@testable import GatehouseCore

/// The retry budget's share over its sliding ten-second window, on a manual clock.
struct RetryBudgetTests {
    static let second = EndpointTestSupport.second

    @Test func aQuietUpstreamMayStillRetryAFewTimes() {
        var budget = RetryBudget(percent: 20)
        budget.recordRequest(now: 0)
        let granted = (0..<5).map { _ in budget.takeRetry(now: 0) }
        #expect(granted == [true, true, true, false, false])
    }

    @Test func retriesStayWithinTheShare() {
        var budget = RetryBudget(percent: 20)
        var granted = 0
        for _ in 0..<100 {
            budget.recordRequest(now: 0)
            if budget.takeRetry(now: 0) { granted += 1 }  // every request fails: a storm
        }
        #expect(granted == 20)
    }

    @Test func oldRequestsAndRetriesAgeOut() {
        var budget = RetryBudget(percent: 20)
        for _ in 0..<100 { budget.recordRequest(now: 0) }
        let early = (0..<20).map { _ in budget.takeRetry(now: 0) }
        #expect(early.allSatisfy { $0 })
        let insideTheWindow = budget.takeRetry(now: 9 * Self.second)
        #expect(!insideTheWindow)
        // Second 0 has left the window: only the floor applies.
        let later = (0..<4).map { _ in budget.takeRetry(now: 10 * Self.second) }
        #expect(later == [true, true, true, false])
    }

    @Test func zeroPercentAllowsOnlyTheMinimum() {
        var budget = RetryBudget(percent: 0)
        for _ in 0..<1000 { budget.recordRequest(now: 0) }
        let granted = (0..<10).filter { _ in budget.takeRetry(now: 0) }.count
        #expect(granted == RetryBudget.minimumRetries)
    }
}
