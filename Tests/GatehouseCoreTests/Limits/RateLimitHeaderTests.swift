import GatehouseConfig
import GatehouseIO
import Testing
@testable import GatehouseCore

/// The `RateLimit-Policy` and `RateLimit` fields: which limit they report, their exact text, and
/// that error envelopes carry them.
struct RateLimitHeaderTests {
    static let metrics = RateLimitMetrics()

    static func limit(_ name: String, _ count: Int, per window: RateLimitRate.Window) -> CompiledRateLimit {
        CompiledRateLimit(config: RateLimitConfig(name: name, key: .ip, rate: RateLimitRate(count: count, per: window)),
                          routeLabel: "/g", metrics: metrics)
    }

    static func allowed(r: Int, t: Int) -> GCRADecision {
        GCRADecision(allowed: true, remaining: r, resetSeconds: t, retryAfterSeconds: 0)
    }

    static func refused(t: Int, retry: Int) -> GCRADecision {
        GCRADecision(allowed: false, remaining: 0, resetSeconds: t, retryAfterSeconds: retry)
    }

    /// (decisions of limits a, b in that order, the one reported).
    static let closestCases: [(a: GCRADecision, b: GCRADecision, reported: String)] = [
        (allowed(r: 5, t: 1), allowed(r: 2, t: 1), "b"),
        (allowed(r: 2, t: 9), allowed(r: 2, t: 3), "a"),
        (allowed(r: 0, t: 1), refused(t: 1, retry: 1), "b"),
        (refused(t: 60, retry: 30), refused(t: 2, retry: 1), "a"),
        (allowed(r: 3, t: 1), allowed(r: 3, t: 1), "a"),
    ]

    @Test(arguments: closestCases)
    func reportsTheLimitClosestToExhaustion(_ row: (a: GCRADecision, b: GCRADecision, reported: String)) {
        var progress = RateLimitProgress()
        progress.consider(Self.limit("a", 10, per: .second), row.a)
        progress.consider(Self.limit("b", 10, per: .second), row.b)
        #expect(progress.closest?.limit.name == row.reported)
    }

    @Test func fieldsText() {
        var block = ByteBuffer(capacity: 16)
        Self.limit("login-per-ip", 10, per: .minute).appendFields(Self.allowed(r: 3, t: 42), to: &block)
        #expect(String(decoding: Array(block.readable), as: UTF8.self)
                == "RateLimit-Policy: \"login-per-ip\";q=10;w=60\r\nRateLimit: \"login-per-ip\";r=3;t=42\r\n")
    }

    @Test func envelopesCarryTheFields() {
        let limit = Self.limit("per-ip", 10, per: .minute)
        var out = ByteBuffer(capacity: 512)
        ErrorEnvelope.render(GatewayError(.rateLimited(retryAfterSeconds: 6), "Too many requests; retry later."),
                             requestID: RequestID(client: "r"), keepAlive: true, headRequest: false,
                             extraFields: { limit.appendFields(Self.refused(t: 30, retry: 6), to: &$0) }, into: &out)
        let text = String(decoding: Array(out.readable), as: UTF8.self)
        #expect(text.contains("\r\nRetry-After: 6\r\nRateLimit-Policy: \"per-ip\";q=10;w=60\r\nRateLimit: \"per-ip\";r=0;t=30\r\n\r\n{"))
    }

    @Test func refusalsAreCountedPerRouteAndPolicy() {
        let metrics = RateLimitMetrics()
        let first = metrics.refusals(route: "/a", policy: "p")
        first.atomicAdd(0, 2)
        #expect(metrics.refusals(route: "/a", policy: "p") === first, "a reload keeps the counter")
        _ = metrics.refusals(route: "/a", policy: "q")
        let text = PrometheusText.render([], rateLimits: metrics)
        #expect(text.contains("gatehouse_rate_limited_total{route=\"/a\",policy=\"p\"} 2\n"))
        #expect(text.contains("gatehouse_rate_limited_total{route=\"/a\",policy=\"q\"} 0\n"))
    }
}
