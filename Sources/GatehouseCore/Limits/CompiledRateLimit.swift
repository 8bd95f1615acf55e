import GatehouseConfig

/// When a limit is checked: before authentication for keys any request has (so a flood of bad
/// credentials is refused without checking a signature), after it for keys only an
/// authenticated request has.
enum RateLimitStage: Sendable {
    case beforeAuthentication
    case afterAuthentication
}

/// One `rate_limit` entry of a route, ready for the hot path.
final class CompiledRateLimit: Sendable {
    let name: String
    let config: RateLimitConfig
    let gcra: GCRA
    let strategy: RateLimitKeyStrategy
    let stage: RateLimitStage
    /// Route path and policy name, NUL-separated: every key of this limit starts with it, so two
    /// routes or two policies never share state.
    let namespace: [UInt8]
    /// `RateLimit-Policy: "name";q=N;w=W\r\n`.
    let policyField: [UInt8]
    /// `RateLimit: "name";r=`, the part of the `RateLimit` line that does not change.
    let limitFieldStart: [UInt8]
    /// Refusals, process-wide (several workers add to it).
    let refusals: AtomicCounters

    init(config: RateLimitConfig, routeLabel: String, metrics: RateLimitMetrics) {
        name = config.name
        self.config = config
        gcra = GCRA(count: config.rate.count, windowSeconds: config.rate.window.seconds, burst: config.burst)
        strategy = RateLimitKeyStrategy(config.key)
        stage = config.key.needsAuthentication ? .afterAuthentication : .beforeAuthentication
        namespace = Array(routeLabel.utf8) + [0] + Array(config.name.utf8) + [0]
        policyField = Array("RateLimit-Policy: \"\(config.name)\";q=\(config.rate.count);w=\(config.rate.window.seconds)\r\n".utf8)
        limitFieldStart = Array("RateLimit: \"\(config.name)\";r=".utf8)
        refusals = metrics.refusals(route: routeLabel, policy: config.name)
    }
}
