import GatehouseConfig
import Testing
@testable import GatehouseCore

/// Passive ejection: the threshold, the growing schedule, readmission and `max_ejected`.
struct OutlierDetectorTests {
    static let second = EndpointTestSupport.second

    static func detector(failures: Int = 3, ejection: Duration = .seconds(10), maxEjected: Int = 50) -> OutlierDetector {
        var config = OutlierConfig()
        config.consecutiveFailures = failures
        config.ejection = ejection
        config.maxEjectedPercent = maxEjected
        return OutlierDetector(config)
    }

    @Test func ejectsAfterConsecutiveFailuresOnly() {
        let endpoints = EndpointTestSupport.endpoints(4)
        let detector = Self.detector()
        #expect(!detector.recordFailure(endpoints[0], among: endpoints, now: 0))
        #expect(!detector.recordFailure(endpoints[0], among: endpoints, now: 0))
        detector.recordSuccess(endpoints[0])  // a success breaks the run
        #expect(!detector.recordFailure(endpoints[0], among: endpoints, now: 0))
        #expect(!detector.recordFailure(endpoints[0], among: endpoints, now: 0))
        #expect(detector.recordFailure(endpoints[0], among: endpoints, now: 0))
        #expect(!endpoints[0].isAvailable(now: 9 * Self.second))
        #expect(endpoints[0].isAvailable(now: 10 * Self.second))  // readmitted
    }

    /// Table: (failure time in seconds → ejected until, in seconds), three failures each time.
    @Test func repeatedEjectionsGrowAndResetAfterAQuietSpell() {
        let endpoints = EndpointTestSupport.endpoints(4)
        let detector = Self.detector()
        let rows: [(at: UInt64, until: UInt64)] = [
            (0, 10),    // first ejection: 1 × 10 s
            (12, 32),   // fails again 2 s after coming back: 2 × 10 s
            (33, 63),   // and again: 3 × 10 s
            (100, 110), // in for 37 s, longer than one base ejection: back to 1 ×
        ]
        for row in rows {
            for _ in 0..<3 { detector.recordFailure(endpoints[0], among: endpoints, now: row.at * Self.second) }
            #expect(endpoints[0].counters.load(UpstreamEndpoint.Counter.ejectedUntil.rawValue) == Int(row.until * Self.second))
        }
        #expect(endpoints[0].counters.load(UpstreamEndpoint.Counter.ejections.rawValue) == 4)
    }

    @Test func growthStopsAtTenTimesTheBase() {
        let endpoints = EndpointTestSupport.endpoints(2)
        let detector = Self.detector(failures: 1, ejection: .seconds(1), maxEjected: 50)
        var now: UInt64 = 0
        for _ in 0..<15 {
            detector.recordFailure(endpoints[0], among: endpoints, now: now)
            now = UInt64(endpoints[0].counters.load(UpstreamEndpoint.Counter.ejectedUntil.rawValue))
        }
        detector.recordFailure(endpoints[0], among: endpoints, now: now)
        #expect(UInt64(endpoints[0].counters.load(UpstreamEndpoint.Counter.ejectedUntil.rawValue)) - now == 10 * Self.second)
    }

    @Test func neverMoreThanMaxEjected() {
        let endpoints = EndpointTestSupport.endpoints(3)
        let detector = Self.detector(failures: 1, maxEjected: 50)  // 50% of 3 = 1
        #expect(detector.maxEjected(of: 3) == 1)
        #expect(detector.recordFailure(endpoints[0], among: endpoints, now: 0))
        #expect(!detector.recordFailure(endpoints[1], among: endpoints, now: 0))
        #expect(endpoints[1].isAvailable(now: 0))
        // Once the first is back, the second may go.
        #expect(detector.recordFailure(endpoints[1], among: endpoints, now: 10 * Self.second))
    }

    @Test func oneEndpointIsNeverEjectedAtFiftyPercent() {
        let endpoints = EndpointTestSupport.endpoints(1)
        let detector = Self.detector(failures: 1)
        #expect(!detector.recordFailure(endpoints[0], among: endpoints, now: 0))
        #expect(endpoints[0].isAvailable(now: 0))
        #expect(Self.detector(failures: 1, maxEjected: 100).recordFailure(endpoints[0], among: endpoints, now: 0))
    }
}
