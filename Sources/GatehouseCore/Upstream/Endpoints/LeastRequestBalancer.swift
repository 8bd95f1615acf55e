/// Power of two choices: of two endpoints drawn at random, the one with fewer requests in
/// flight. Cheap per request, and it keeps load off a slow endpoint without herding every
/// request onto the momentarily idlest one.
final class LeastRequestBalancer: EndpointBalancer {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    func pick(_ endpoints: [UpstreamEndpoint], now: UInt64, avoiding: UpstreamEndpoint?) -> Int? {
        let count = endpoints.count
        guard count > 1 else {
            return count == 1 && usable(endpoints[0], now, avoiding) ? 0 : nil
        }
        let first = Int(random.next() % UInt64(count))
        let second = (first + 1 + Int(random.next() % UInt64(count - 1))) % count
        switch (usable(endpoints[first], now, avoiding), usable(endpoints[second], now, avoiding)) {
        case (true, true):
            return endpoints[second].inFlight < endpoints[first].inFlight ? second : first
        case (true, false): return first
        case (false, true): return second
        case (false, false): return leastBusy(endpoints, now, avoiding)
        }
    }

    private func usable(_ endpoint: UpstreamEndpoint, _ now: UInt64, _ avoiding: UpstreamEndpoint?) -> Bool {
        endpoint !== avoiding && endpoint.isAvailable(now: now)
    }

    /// Both draws were out: the least busy of the rest.
    private func leastBusy(_ endpoints: [UpstreamEndpoint], _ now: UInt64, _ avoiding: UpstreamEndpoint?) -> Int? {
        var best: Int?
        for (index, endpoint) in endpoints.enumerated() where usable(endpoint, now, avoiding) {
            if best == nil || endpoint.inFlight < endpoints[best!].inFlight { best = index }
        }
        return best
    }
}
