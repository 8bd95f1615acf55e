import GatehouseIO
import Synchronization

/// Per-route counters of one worker: statuses, latency histogram, auth failures.
public final class RouteMetrics: Sendable {
    public static let bucketBounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    private static let bucketMicros: [Int] = bucketBounds.map { Int($0 * 1_000_000) }

    public let label: String
    /// Indexed by status code (100...599).
    public let statuses = AtomicCounters(count: 600)
    /// One per bound, then +Inf, then the sum in microseconds, then the count.
    public let durations = AtomicCounters(count: bucketBounds.count + 3)
    public let authFailures = AtomicCounters(count: AuthFailureLabel.allCases.count)

    init(label: String) { self.label = label }

    @inline(__always)
    func record(status: Int, micros: Int) {
        statuses.add(status >= 100 && status < 600 ? status : 599)
        var bucket = Self.bucketMicros.count
        for (index, bound) in Self.bucketMicros.enumerated() where micros <= bound {
            bucket = index
            break
        }
        durations.add(bucket)
        durations.add(Self.bucketBounds.count + 1, micros)
        durations.add(Self.bucketBounds.count + 2)
    }
}

/// The reasons authentication failures are counted under.
public enum AuthFailureLabel: String, CaseIterable, Sendable {
    case missing, malformed, unsupported_algorithm, bad_signature, expired, not_yet_valid,
         wrong_issuer, wrong_audience, invalid_claim, unknown_key, invalid_key, invalid_api_key
}

/// Per-upstream outcome counters of one worker.
public final class UpstreamMetrics: Sendable {
    public enum Outcome: Int, CaseIterable, Sendable {
        case success, connect_error, timeout, reset, bad_response, unavailable
        var label: String { String(describing: self) }
    }

    public let name: String
    public let outcomes = AtomicCounters(count: Outcome.allCases.count)

    init(name: String) { self.name = name }

    @inline(__always)
    func record(_ outcome: Outcome) { outcomes.add(outcome.rawValue) }
}

/// All metrics of one worker. The maps change only when a configuration is installed; the
/// counters inside change on every request, without a lock.
public final class WorkerMetrics: Sendable {
    private let routes = Locked<[String: RouteMetrics]>([:])
    private let upstreams = Locked<[String: UpstreamMetrics]>([:])
    /// Open client connections of this worker (index 0).
    public let connections = AtomicCounters(count: 1)
    /// Open WebSocket tunnels of this worker (index 0).
    public let websocketTunnelsOpen = AtomicCounters(count: 1)
    /// Tunnel closes by route and close code. Closes are rare, so a lock is fine here.
    private let websocketCloses = Locked<[WebSocketCloseSeries: Int]>([:])

    public init() {}

    func route(_ label: String) -> RouteMetrics {
        routes.withLock { map in
            if let existing = map[label] { return existing }
            let created = RouteMetrics(label: label)
            map[label] = created
            return created
        }
    }

    func upstream(_ name: String) -> UpstreamMetrics {
        upstreams.withLock { map in
            if let existing = map[name] { return existing }
            let created = UpstreamMetrics(name: name)
            map[name] = created
            return created
        }
    }

    func recordWebSocketClose(route: String, code: UInt16) {
        websocketCloses.withLock { $0[WebSocketCloseSeries(route: route, code: code), default: 0] += 1 }
    }

    var allWebSocketCloses: [WebSocketCloseSeries: Int] { websocketCloses.withLock { $0 } }

    var allRoutes: [RouteMetrics] { routes.withLock { Array($0.values) } }
    var allUpstreams: [UpstreamMetrics] { upstreams.withLock { Array($0.values) } }
}

/// One series of `gatehouse_websocket_closes_total`.
public struct WebSocketCloseSeries: Hashable, Sendable {
    public let route: String
    public let code: UInt16
}
