import GatehouseConfig
import GatehouseIO

/// One address of an upstream as one worker sees it: whether it may take requests (health
/// checks, passive ejection) and how busy it is. Only its worker's thread changes it; the
/// counters are what the admin thread reads for metrics and status.
final class UpstreamEndpoint {
    /// Slots of `counters`.
    enum Counter: Int, CaseIterable {
        case inFlight, ejectedUntil, ejections
    }

    let address: SocketAddress
    /// "127.0.0.1:4000", "[::1]:4000": the endpoint's name in metrics, logs and status.
    let label: String
    /// False while active health checks find it failing.
    var healthy = true
    /// Failures in a row since the last success or ejection.
    var consecutiveFailures = 0
    /// Monotonic nanoseconds; 0 when it was never ejected.
    private(set) var ejectedUntil: UInt64 = 0
    /// Ejections in a row: the next one lasts this many times the base ejection, plus one.
    var ejectionStreak = 0
    let counters = AtomicCounters(count: Counter.allCases.count)

    init(address: SocketAddress, label: String) {
        self.address = address
        self.label = label
    }

    convenience init(address: SocketAddress) {
        self.init(address: address, label: Self.label(for: address))
    }

    static func label(for address: SocketAddress) -> String {
        let (host, port) = address.hostAndPort
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    var inFlight: Int { counters.load(Counter.inFlight.rawValue) }

    func isEjected(now: UInt64) -> Bool { ejectedUntil > now }

    /// Whether a request may go here now.
    func isAvailable(now: UInt64) -> Bool { healthy && ejectedUntil <= now }

    func requestStarted() { counters.add(Counter.inFlight.rawValue, 1) }
    func requestEnded() { counters.add(Counter.inFlight.rawValue, -1) }

    func eject(until: UInt64) {
        ejectedUntil = until
        let slot = Counter.ejectedUntil.rawValue
        counters.add(slot, Int(until) - counters.load(slot))
        counters.add(Counter.ejections.rawValue, 1)
    }
}

extension UpstreamFailure {
    /// The `retry.on` condition this failure falls under.
    var retryCondition: RetryCondition {
        switch self {
        case .connectTimeout, .refused: return .connect
        case .reset, .closed, .tls: return .reset
        }
    }
}
