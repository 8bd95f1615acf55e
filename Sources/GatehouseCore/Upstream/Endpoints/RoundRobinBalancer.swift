/// Each available endpoint in turn; unavailable ones are stepped over.
final class RoundRobinBalancer: EndpointBalancer {
    private var next = 0

    func pick(_ endpoints: [UpstreamEndpoint], now: UInt64, avoiding: UpstreamEndpoint?) -> Int? {
        let count = endpoints.count
        for step in 0..<count {
            let index = (next + step) % count
            let endpoint = endpoints[index]
            if endpoint !== avoiding && endpoint.isAvailable(now: now) {
                next = (index + 1) % count
                return index
            }
        }
        return nil
    }
}
