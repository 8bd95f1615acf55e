import Testing
@testable import GatehouseCore

/// Check results in a row to a verdict, and the status line a check reads.
struct HealthTrackerTests {
    @Test func thresholdsInARow() {
        var tracker = HealthTracker(healthy: 2, unhealthy: 3)
        let results: [(passed: Bool, changed: Bool, healthy: Bool)] = [
            (false, false, true), (false, false, true), (true, false, true),  // a pass breaks the run
            (false, false, true), (false, false, true), (false, true, false),  // three in a row: out
            (true, false, false), (true, true, true),                          // two passes: back
        ]
        for row in results {
            #expect(tracker.record(passed: row.passed) == row.changed)
            #expect(tracker.isHealthy == row.healthy)
        }
    }

    @Test(arguments: [("HTTP/1.1 200 OK\r\n", 200), ("HTTP/1.0 503 Busy\r\n", 503), ("garbage\n", -1)])
    func statusLine(text: String, status: Int) {
        #expect(HealthProbe.statusCode(ArraySlice(Array(text.utf8))) == status)
        #expect(HealthProbe.statusCode(ArraySlice(Array("HTTP/1.1 200".utf8))) == nil)
    }
}
