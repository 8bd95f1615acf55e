import GatehouseConfig
import GatehouseIO
import Synchronization

/// What every worker's connection to the stores reports, for `gatehouse_store_up{store}`,
/// `gatehouse_store_errors_total{store,op}`, `gatehouse_store_latency_seconds` and `/status`.
/// One per process, like the rate-limit counters: series outlive reloads. Several workers write
/// to one series, so counters are added atomically (only requests on store-backed routes pay it).
public final class StoreMetrics: Sendable {
    public static let process = StoreMetrics()

    /// The operations errors are counted under.
    public enum Operation: Int, CaseIterable, Sendable {
        case connect, rate_limit, get, set, del, other

        init(label: String) { self = Operation.allCases.first { "\($0)" == label } ?? .other }
        var label: String { "\(self)" }
    }

    /// A store answers within its timeout (50 ms by default), so the buckets are fine below it.
    public static let latencyBounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25]
    private static let latencyBoundNanos: [UInt64] = latencyBounds.map { UInt64($0 * 1_000_000_000) }

    public final class Series: Sendable {
        public let store: String
        /// The url without its password.
        public let url: String
        public let errors = AtomicCounters(count: Operation.allCases.count)
        /// One per bound, then +Inf, then the sum in nanoseconds, then the count.
        public let latency = AtomicCounters(count: StoreMetrics.latencyBounds.count + 3)
        /// Worker connections currently marked down.
        public let downConnections = AtomicCounters(count: 1)
        private let lastErrorText = Locked<String?>(nil)

        init(store: String, url: String) {
            self.store = store
            self.url = url
        }

        public var isUp: Bool { downConnections.load(0) == 0 }
        public var lastError: String? { lastErrorText.withLock { $0 } }

        func recordError(_ op: String, reason: String) {
            errors.atomicAdd(Operation(label: op).rawValue, 1)
            lastErrorText.withLock { $0 = reason }
        }

        func recordLatency(nanos: UInt64) {
            let bucket = StoreMetrics.latencyBoundNanos.firstIndex { nanos <= $0 } ?? StoreMetrics.latencyBounds.count
            latency.atomicAdd(bucket, 1)
            latency.atomicAdd(StoreMetrics.latencyBounds.count + 1, Int(nanos))
            latency.atomicAdd(StoreMetrics.latencyBounds.count + 2, 1)
        }

        /// Returns whether this made the whole store go down (the first connection down) or up
        /// (the last one back), so the transition is logged once per process, not per worker.
        func connectionChanged(isUp: Bool) -> Bool {
            let before = downConnections.load(0)
            downConnections.atomicAdd(0, isUp ? -1 : 1)
            return isUp ? before == 1 : before == 0
        }
    }

    private let series = Locked<[String: Series]>([:])

    public init() {}

    /// The series of `store`; a store whose url changed starts a new one.
    func series(for store: StoreConfig) -> Series {
        series.withLock { map in
            let url = store.url.description
            if let existing = map[store.name], existing.url == url { return existing }
            let created = Series(store: store.name, url: url)
            map[store.name] = created
            return created
        }
    }

    /// Every series, by store name.
    var all: [Series] { series.withLock { Array($0.values) }.sorted { $0.store < $1.store } }
}
