import GatehouseConfig

/// Passive ejection (README, "Upstream endpoints and resilience"): an endpoint that fails
/// `consecutive_failures` times in a row is taken out for `ejection`, longer each time it is
/// ejected again soon after coming back; never more than `max_ejected` of the endpoints at once.
struct OutlierDetector {
    let consecutiveFailures: Int
    let ejectionNanos: UInt64
    let maxEjectedPercent: Int

    /// Ejections stop growing here: ten times the base, as Envoy's 30 s base and 300 s maximum.
    static let maxEjectionMultiplier = 10

    init(_ config: OutlierConfig) {
        consecutiveFailures = config.consecutiveFailures
        ejectionNanos = UInt64(config.ejection.nanoseconds)
        maxEjectedPercent = config.maxEjectedPercent
    }

    /// How many of `count` endpoints may be out at once (rounded down).
    func maxEjected(of count: Int) -> Int { count * maxEjectedPercent / 100 }

    /// A request to `endpoint` succeeded.
    func recordSuccess(_ endpoint: UpstreamEndpoint) {
        endpoint.consecutiveFailures = 0
    }

    /// A request to `endpoint` failed; true when this ejected it.
    @discardableResult
    func recordFailure(_ endpoint: UpstreamEndpoint, among endpoints: [UpstreamEndpoint], now: UInt64) -> Bool {
        endpoint.consecutiveFailures += 1
        guard endpoint.consecutiveFailures >= consecutiveFailures, !endpoint.isEjected(now: now) else { return false }
        let ejected = endpoints.reduce(0) { $0 + ($1.isEjected(now: now) ? 1 : 0) }
        guard ejected < maxEjected(of: endpoints.count) else { return false }
        endpoint.consecutiveFailures = 0
        endpoint.eject(until: now + ejectionNanos * UInt64(nextMultiplier(endpoint, now: now)))
        return true
    }

    /// One more than last time when the endpoint fails again within one base ejection of its
    /// readmission; back to one after it stayed in that long.
    private func nextMultiplier(_ endpoint: UpstreamEndpoint, now: UInt64) -> Int {
        let cameBack = endpoint.ejectedUntil
        if endpoint.ejectionStreak > 0 && now < cameBack + ejectionNanos {
            endpoint.ejectionStreak = min(endpoint.ejectionStreak + 1, Self.maxEjectionMultiplier)
        } else {
            endpoint.ejectionStreak = 1
        }
        return endpoint.ejectionStreak
    }
}
