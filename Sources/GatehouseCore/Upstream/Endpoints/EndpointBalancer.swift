import GatehouseConfig

/// Chooses the endpoint for the next request (README, "Upstream endpoints and resilience").
protocol EndpointBalancer: AnyObject {
    /// The index in `endpoints` of an available endpoint other than `avoiding`; nil when there is none.
    func pick(_ endpoints: [UpstreamEndpoint], now: UInt64, avoiding: UpstreamEndpoint?) -> Int?
}

enum EndpointBalancers {
    static func make(_ strategy: BalanceStrategy, seed: UInt64) -> any EndpointBalancer {
        switch strategy {
        case .roundRobin: return RoundRobinBalancer()
        case .leastRequest: return LeastRequestBalancer(seed: seed)
        }
    }
}
