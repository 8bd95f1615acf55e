import Testing
@testable import GatehouseCore

/// How each balancer spreads requests, and how it steps over endpoints that are out.
struct BalancerTests {
    @Test func roundRobinSpreadsEvenly() {
        let endpoints = EndpointTestSupport.endpoints(3)
        let balancer = RoundRobinBalancer()
        var counts = [0, 0, 0]
        for _ in 0..<300 { counts[balancer.pick(endpoints, now: 0, avoiding: nil)!] += 1 }
        #expect(counts == [100, 100, 100])
    }

    @Test func roundRobinStepsOverUnavailableAndAvoided() {
        let endpoints = EndpointTestSupport.endpoints(3)
        endpoints[1].healthy = false
        let balancer = RoundRobinBalancer()
        let picks = (0..<4).map { _ in balancer.pick(endpoints, now: 0, avoiding: nil)! }
        #expect(picks == [0, 2, 0, 2])
        #expect(balancer.pick(endpoints, now: 0, avoiding: endpoints[0]) == 2)
        endpoints[2].healthy = false
        #expect(balancer.pick(endpoints, now: 0, avoiding: endpoints[0]) == nil)
    }

    @Test func leastRequestSpreadsEvenlyWhenLoadIsEqual() {
        let endpoints = EndpointTestSupport.endpoints(3)
        let balancer = LeastRequestBalancer(seed: 42)
        var counts = [0, 0, 0]
        for _ in 0..<3000 { counts[balancer.pick(endpoints, now: 0, avoiding: nil)!] += 1 }
        #expect(counts.allSatisfy { (800...1200).contains($0) }, "\(counts)")
    }

    @Test func leastRequestKeepsLoadOffABusyEndpoint() {
        let endpoints = EndpointTestSupport.endpoints(3)
        for _ in 0..<10 { endpoints[0].requestStarted() }  // a slow endpoint piles up requests
        let balancer = LeastRequestBalancer(seed: 7)
        var counts = [0, 0, 0]
        for _ in 0..<3000 { counts[balancer.pick(endpoints, now: 0, avoiding: nil)!] += 1 }
        // Endpoint 0 wins only when both draws... never: any other endpoint has fewer in flight.
        #expect(counts[0] == 0, "\(counts)")
        #expect(counts[1] > 1000 && counts[2] > 1000)
    }

    @Test func leastRequestFallsBackWhenBothDrawsAreOut() {
        let endpoints = EndpointTestSupport.endpoints(4)
        for index in 0..<3 { endpoints[index].healthy = false }
        let balancer = LeastRequestBalancer(seed: 1)
        for _ in 0..<50 { #expect(balancer.pick(endpoints, now: 0, avoiding: nil) == 3) }
        #expect(balancer.pick(endpoints, now: 0, avoiding: endpoints[3]) == nil)
    }
}
