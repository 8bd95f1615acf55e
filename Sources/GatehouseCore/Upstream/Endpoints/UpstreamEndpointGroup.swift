import GatehouseConfig
import GatehouseIO

/// One upstream as one worker reaches it: an endpoint and a pool per address, the balancer that
/// picks among them, passive ejection and the retry budget. Endpoint lists change by diffing
/// (a reload or a DNS change): kept endpoints keep their pools and state, removed ones are
/// drained — their lent connections finish, their idle ones close.
final class UpstreamEndpointGroup {
    unowned(unsafe) let loop: EventLoop
    private(set) var upstream: CompiledUpstream
    private(set) var endpoints: [UpstreamEndpoint] = []
    /// `pools[i]` connects to `endpoints[i]`.
    private(set) var pools: [UpstreamPool] = []
    private let balancer: any EndpointBalancer
    private(set) var outlier: OutlierDetector?
    var budget: RetryBudget
    let metrics: UpstreamMetrics
    private let board: UpstreamStatusBoard

    init(loop: EventLoop, upstream: CompiledUpstream, metrics: UpstreamMetrics, seed: UInt64,
         board: UpstreamStatusBoard = .process) {
        self.loop = loop
        self.upstream = upstream
        self.metrics = metrics
        self.board = board
        balancer = EndpointBalancers.make(upstream.config.balance, seed: seed)
        outlier = upstream.config.outlier.map(OutlierDetector.init)
        budget = RetryBudget(percent: upstream.config.retry.budgetPercent)
        apply(addresses: upstream.addresses)
    }

    var name: String { upstream.config.name }
    var retry: RetryConfig { upstream.config.retry }

    /// A reload with the same pool key: new settings, and the endpoints it resolved.
    func adopt(_ newer: CompiledUpstream) {
        upstream = newer
        outlier = newer.config.outlier.map(OutlierDetector.init)
        budget = RetryBudget(percent: newer.config.retry.budgetPercent)
        for pool in pools { pool.adopt(newer) }
        apply(addresses: newer.addresses)
    }

    /// The pool of the endpoint the next request goes to, other than `avoiding`'s; nil when
    /// every endpoint is unhealthy or ejected (the request gets 503 at once).
    func pick(now: UInt64, avoiding: UpstreamPool? = nil) -> UpstreamPool? {
        if endpoints.count == 1 && avoiding == nil {
            return endpoints[0].isAvailable(now: now) ? pools[0] : nil
        }
        return balancer.pick(endpoints, now: now, avoiding: avoiding?.endpoint).map { pools[$0] }
    }

    /// Requests queued for a connection across the endpoints.
    var pendingCount: Int { pools.reduce(0) { $0 + $1.waitingCount } }

    var isPendingFull: Bool {
        guard let limit = upstream.config.maxPending else { return false }
        return pendingCount >= limit
    }

    // MARK: - Outcomes

    func recordSuccess(_ pool: UpstreamPool) {
        outlier?.recordSuccess(pool.endpoint)
    }

    func recordFailure(_ pool: UpstreamPool, now: UInt64) {
        guard let outlier, outlier.recordFailure(pool.endpoint, among: endpoints, now: now) else { return }
        ErrorLog.warn("upstream \(name): endpoint \(pool.endpoint.label) ejected after "
                      + "\(outlier.consecutiveFailures) failures in a row")
    }

    // MARK: - Endpoint changes

    /// Applies a newly resolved address list.
    func apply(addresses: [SocketAddress]) {
        let labels = addresses.map(UpstreamEndpoint.label(for:))
        let diff = EndpointListDiff(old: endpoints.map(\.label), new: labels)
        guard !diff.isEmpty || endpoints.isEmpty else { return }
        var byLabel: [String: (UpstreamEndpoint, UpstreamPool)] = [:]
        for (endpoint, pool) in zip(endpoints, pools) { byLabel[endpoint.label] = (endpoint, pool) }
        for label in diff.removed {
            guard let (endpoint, pool) = byLabel[label] else { continue }
            pool.retire()
            board.unregister(upstream: name, endpoint)
        }
        var newEndpoints: [UpstreamEndpoint] = []
        var newPools: [UpstreamPool] = []
        for (address, label) in zip(addresses, labels) {
            if let (endpoint, pool) = byLabel[label] {
                newEndpoints.append(endpoint)
                newPools.append(pool)
                continue
            }
            let endpoint = UpstreamEndpoint(address: address, label: label)
            newEndpoints.append(endpoint)
            newPools.append(UpstreamPool(loop: loop, upstream: upstream, endpoint: endpoint, group: self, metrics: metrics))
            board.register(upstream: name, endpoint)
        }
        endpoints = newEndpoints
        pools = newPools
    }

    /// The health checker's verdict on one endpoint.
    func setHealthy(_ label: String, _ healthy: Bool) {
        for endpoint in endpoints where endpoint.label == label { endpoint.healthy = healthy }
    }

    /// Retired by a reload, or draining: every idle connection closes.
    func closeIdle() {
        for pool in pools { pool.closeIdle() }
    }

    /// The group is gone from the configuration: its endpoints leave the status board.
    func retire() {
        for (endpoint, pool) in zip(endpoints, pools) {
            pool.retire()
            board.unregister(upstream: name, endpoint)
        }
    }
}
