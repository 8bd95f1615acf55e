import GatehouseConfig
import GatehouseGraphQL
import GatehouseIO
import Synchronization

/// What the admin thread shows about endpoints: health from the checker, every worker's
/// endpoint counters (in flight, ejected until, ejections), retries by reason. One per process,
/// so counters outlive reloads; touched when endpoints come and go, on health changes and on
/// retries, never for a plain request.
final class UpstreamStatusBoard: Sendable {
    static let process = UpstreamStatusBoard()

    /// The `retry.on` reasons retries are counted under, in metric order.
    static let retryReasons: [RetryCondition] = [.connect, .reset, .status(502), .status(503), .status(504)]

    private struct EndpointRow {
        var healthy = true
        /// Each worker's counters for this endpoint, by the endpoint object's identity.
        var workers: [ObjectIdentifier: AtomicCounters] = [:]
        /// Ejections by endpoint objects that are gone (a worker's endpoint retired by a DNS change).
        var pastEjections = 0
    }

    private struct UpstreamRows {
        var order: [String] = []
        var endpoints: [String: EndpointRow] = [:]
        var retries = AtomicCounters(count: UpstreamStatusBoard.retryReasons.count)
    }

    private let upstreams = Locked<[String: UpstreamRows]>([:])

    init() {}

    // MARK: - Writers

    func register(upstream: String, _ endpoint: UpstreamEndpoint) {
        upstreams.withLock { map in
            var rows = map[upstream] ?? UpstreamRows()
            if rows.endpoints[endpoint.label] == nil { rows.order.append(endpoint.label) }
            rows.endpoints[endpoint.label, default: EndpointRow()].workers[ObjectIdentifier(endpoint)] = endpoint.counters
            map[upstream] = rows
        }
    }

    func unregister(upstream: String, _ endpoint: UpstreamEndpoint) {
        upstreams.withLock { map in
            guard var row = map[upstream]?.endpoints[endpoint.label] else { return }
            row.workers[ObjectIdentifier(endpoint)] = nil
            row.pastEjections += endpoint.counters.load(UpstreamEndpoint.Counter.ejections.rawValue)
            if row.workers.isEmpty {
                map[upstream]?.endpoints[endpoint.label] = nil
                map[upstream]?.order.removeAll { $0 == endpoint.label }
            } else {
                map[upstream]?.endpoints[endpoint.label] = row
            }
        }
    }

    func setHealthy(upstream: String, endpoint: String, _ healthy: Bool) {
        upstreams.withLock { map in map[upstream]?.endpoints[endpoint]?.healthy = healthy }
    }

    func countRetry(upstream: String, reason: RetryCondition) {
        guard let index = Self.retryReasons.firstIndex(of: reason) else { return }
        let counters = upstreams.withLock { map in
            if map[upstream] == nil { map[upstream] = UpstreamRows() }
            return map[upstream]!.retries
        }
        counters.atomicAdd(index, 1)
    }

    // MARK: - Readers

    struct EndpointStatus {
        let label: String
        let healthy: Bool
        /// Monotonic nanoseconds; the latest of the workers' ejections.
        let ejectedUntil: UInt64
        let inFlight: Int
        let ejections: Int
    }

    func endpoints(of upstream: String) -> [EndpointStatus] {
        upstreams.withLock { map in
            guard let rows = map[upstream] else { return [] }
            return rows.order.compactMap { label in
                guard let row = rows.endpoints[label] else { return nil }
                let counters = Array(row.workers.values)
                return EndpointStatus(
                    label: label, healthy: row.healthy,
                    ejectedUntil: UInt64(counters.map { $0.load(UpstreamEndpoint.Counter.ejectedUntil.rawValue) }.max() ?? 0),
                    inFlight: counters.reduce(0) { $0 + $1.load(UpstreamEndpoint.Counter.inFlight.rawValue) },
                    ejections: row.pastEjections
                        + counters.reduce(0) { $0 + $1.load(UpstreamEndpoint.Counter.ejections.rawValue) })
            }
        }
    }

    func retries(of upstream: String) -> [(reason: String, count: Int)] {
        let counters = upstreams.withLock { $0[upstream]?.retries }
        return Self.retryReasons.enumerated().map { ($1.label, counters?.load($0) ?? 0) }
    }

    var upstreamNames: [String] { upstreams.withLock { Array($0.keys) }.sorted() }

    /// Every upstream's `statusJSON`, by name.
    func statusJSON() -> JSONValue {
        .object(JSONObject(upstreamNames.map { (key: $0, value: statusJSON(upstream: $0)) }))
    }

    /// One upstream for the admin `/status` page: each endpoint's address, health, ejection
    /// (seconds left, 0 when in) and requests in flight.
    func statusJSON(upstream: String) -> JSONValue {
        let now = MonotonicClock.nanoseconds
        let endpoints = self.endpoints(of: upstream).map { endpoint -> JSONValue in
            let leftMillis = endpoint.ejectedUntil > now ? (endpoint.ejectedUntil - now) / 1_000_000 : 0
            return .object(JSONObject([
                ("address", .string(endpoint.label)),
                ("healthy", .bool(endpoint.healthy)),
                ("ejected", .bool(endpoint.ejectedUntil > now)),
                ("ejected_for_ms", .number(String(leftMillis))),
                ("in_flight", .number(String(endpoint.inFlight))),
                ("ejections", .number(String(endpoint.ejections))),
            ]))
        }
        let retries = self.retries(of: upstream).map { (key: $0.reason, value: JSONValue.number(String($0.count))) }
        return .object(JSONObject([
            ("upstream", .string(upstream)),
            ("endpoints", .array(endpoints)),
            ("retries", .object(JSONObject(retries))),
        ]))
    }
}
