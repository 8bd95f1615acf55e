import GatehouseIO
import Synchronization

/// `gatehouse_cache_requests_total{route,result}`: one set of counters per route label for the
/// process, kept across reloads so Prometheus sees counters, not resets.
final class CacheMetrics: Sendable {
    enum Result: Int, CaseIterable {
        case hit
        case miss
        case stale
        case collapsed
        case bypass

        var label: String {
            switch self {
            case .hit: "hit"
            case .miss: "miss"
            case .stale: "stale"
            case .collapsed: "collapsed"
            case .bypass: "bypass"
            }
        }
    }

    private let routes = Locked<[String: AtomicCounters]>([:])

    init() {}

    /// The counters of `route`, created when a configuration is compiled.
    func counters(route: String) -> AtomicCounters {
        routes.withLock { map in
            if let existing = map[route] { return existing }
            let created = AtomicCounters(count: Result.allCases.count)
            map[route] = created
            return created
        }
    }

    var all: [(route: String, counters: AtomicCounters)] {
        routes.withLock { map in map.map { ($0.key, $0.value) } }.sorted { $0.route < $1.route }
    }
}
