/// `upstreams.<name>.balance:` — how a request picks one of the upstream's endpoints.
public enum BalanceStrategy: String, Sendable, Equatable {
    /// Each endpoint in turn.
    case roundRobin = "round_robin"
    /// The less busy of two endpoints picked at random (power of two choices on in-flight requests).
    case leastRequest = "least_request"
}

/// `upstreams.<name>.health_check:` — active `GET`s to every endpoint.
public struct HealthCheckConfig: Sendable, Equatable {
    public var path = "/health"
    public var interval: Duration = .seconds(5)
    public var timeout: Duration = .seconds(1)
    /// Consecutive passing checks that readmit an unhealthy endpoint.
    public var healthy = 2
    /// Consecutive failing checks that take an endpoint out.
    public var unhealthy = 3

    public init() {}
}

/// `upstreams.<name>.outlier:` — passive ejection of endpoints that keep failing.
public struct OutlierConfig: Sendable, Equatable {
    /// Failures in a row (refused, reset, timed out, or a 502/503/504) that eject an endpoint.
    public var consecutiveFailures = 5
    /// The first ejection's length; the n-th ejection in a row lasts n times as long.
    public var ejection: Duration = .seconds(30)
    /// Never more than this share of the endpoints is ejected at once, in percent.
    public var maxEjectedPercent = 50

    public init() {}
}

/// Why a request may be sent again (`retry.on`).
public enum RetryCondition: Sendable, Hashable {
    /// The connection could not be made (refused, connect timeout): nothing was sent.
    case connect
    /// The connection broke after bytes were sent, before a response head.
    case reset
    /// The upstream answered with this status (before anything reached the client).
    case status(Int)

    /// The statuses `status` may name: those that say the upstream did not act on the request.
    @inlinable public static var retryableStatuses: ClosedRange<Int> { 502...504 }

    /// False for a condition no retry list can hold (a 200, a 404): every response head asks,
    /// and it needs no look at the upstream's list. Inlinable: the request path calls it from
    /// another module.
    @inlinable public var mayBeRetried: Bool {
        if case .status(let code) = self { return Self.retryableStatuses.contains(code) }
        return true
    }

    public var label: String {
        switch self {
        case .connect: return "connect"
        case .reset: return "reset"
        case .status(let code): return String(code)
        }
    }
}

/// `upstreams.<name>.retry:`.
public struct RetryConfig: Sendable, Equatable {
    /// Tries in all, the first included.
    public var attempts = 2
    public var on: Set<RetryCondition> = [.connect]
    /// The share of requests (in percent, over a sliding window) that may be retries after
    /// bytes were sent.
    public var budgetPercent = 20

    public init() {}

    /// Whether any condition resends a request that reached an upstream.
    public var retriesAfterSend: Bool {
        attempts > 1 && on.contains { $0 != .connect }
    }
}
