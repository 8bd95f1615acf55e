import GatehouseConfig
import GatehouseHTTP
import GatehouseIO

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
    /// A `route` limit's one check (its key is the namespace), hashed once here rather than on
    /// every request; nil for the other keys, which depend on the request.
    let routeCheck: RateLimitCheck?
    /// `RateLimit-Policy: "name";q=N;w=W\r\nRateLimit: "name";r=`: the part of the two lines
    /// that does not change.
    let fieldsStart: [UInt8]
    /// Refusals, process-wide (several workers add to it).
    let refusals: AtomicCounters

    init(config: RateLimitConfig, routeLabel: String, metrics: RateLimitMetrics) {
        name = config.name
        self.config = config
        gcra = GCRA(count: config.rate.count, windowSeconds: config.rate.window.seconds, burst: config.burst)
        strategy = RateLimitKeyStrategy(config.key)
        stage = config.key.needsAuthentication ? .afterAuthentication : .beforeAuthentication
        namespace = Array(routeLabel.utf8) + [0] + Array(config.name.utf8) + [0]
        if case .route = strategy { routeCheck = RateLimitCheck(gcra: gcra, key: namespace) } else { routeCheck = nil }
        fieldsStart = Array(("RateLimit-Policy: \"\(config.name)\";q=\(config.rate.count);w=\(config.rate.window.seconds)\r\n"
                             + "RateLimit: \"\(config.name)\";r=").utf8)
        refusals = metrics.refusals(route: routeLabel, policy: config.name)
    }

    /// Room for the longest usual key material (a provider name and a SHA-256 digest, or a
    /// subject) so building a key allocates once.
    static let keyMaterialCapacity = 96

    /// This limit's check for `request`; nil when the limit does not apply to it.
    func check(for request: RateLimitKeyStrategy.Request) -> RateLimitCheck? {
        if let routeCheck { return routeCheck }
        var key = namespace
        key.reserveCapacity(namespace.count + Self.keyMaterialCapacity)
        guard strategy.appendKey(to: &key, for: request) else { return nil }
        return RateLimitCheck(gcra: gcra, key: key)
    }

    /// Appends the `RateLimit-Policy` and `RateLimit` lines reporting `decision` to the response
    /// head: the fixed start and then the rest in one copy, the numbers written backwards into a
    /// scratch (`DecimalDigits`). This runs on every response of a limited route.
    func appendFields(_ decision: GCRADecision, to out: inout ByteBuffer) {
        // `r;t=T\r\n` at its longest: two numbers of 20 digits and 5 separators.
        var scratch: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        out.append(fieldsStart)
        withUnsafeMutableBytes(of: &scratch) { rest in
            // Both numbers are never negative (`GCRA`).
            var first = rest.count - 2
            rest[first] = UInt8(ascii: "\r")
            rest[first + 1] = UInt8(ascii: "\n")
            first = DecimalDigits.write(decision.resetSeconds.magnitude, endingAt: first, in: rest)
            first -= 3
            rest[first] = UInt8(ascii: ";")
            rest[first + 1] = UInt8(ascii: "t")
            rest[first + 2] = UInt8(ascii: "=")
            first = DecimalDigits.write(decision.remaining.magnitude, endingAt: first, in: rest)
            out.append(UnsafeRawBufferPointer(rebasing: rest[first...]))
        }
    }
}
