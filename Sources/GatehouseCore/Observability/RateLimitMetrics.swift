import GatehouseIO
import Synchronization

/// Requests refused by each limit, for `gatehouse_rate_limited_total{route,policy}`. One per
/// process like the memory store: the counters outlive configuration reloads, so a reload does
/// not reset a counter Prometheus is tracking.
public final class RateLimitMetrics: Sendable {
    public static let process = RateLimitMetrics()

    public struct Series: Sendable {
        public let route: String
        public let policy: String
        public let refusals: AtomicCounters
    }

    private let series = Locked<[String: Series]>([:])

    public init() {}

    /// The counter of `policy` on `route`, created on first use (when a configuration is compiled).
    func refusals(route: String, policy: String) -> AtomicCounters {
        series.withLock { map in
            let id = "\(route)\u{0}\(policy)"
            if let existing = map[id] { return existing.refusals }
            let created = Series(route: route, policy: policy, refusals: AtomicCounters(count: 1))
            map[id] = created
            return created.refusals
        }
    }

    /// Every series, ordered by route then policy.
    var all: [Series] {
        series.withLock { Array($0.values) }.sorted { ($0.route, $0.policy) < ($1.route, $1.policy) }
    }
}
