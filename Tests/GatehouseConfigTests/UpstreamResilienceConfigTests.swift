import Testing
@testable import GatehouseConfig

/// `upstreams.<name>` endpoints, balancing, health checks, outlier ejection and retries.
@Suite struct UpstreamResilienceConfigTests {
    static let refusals: [BadConfigCase] = [
        BadConfigCase("empty endpoints", ConfigTestSupport.withUpstream("{url: \"http://a\", endpoints: []}"),
                      "upstreams.app.endpoints: list at least one endpoint, or leave the key out"),
        BadConfigCase("bad endpoint url", ConfigTestSupport.withUpstream("{url: \"http://a\", endpoints: [\"http://b:1\", \"ftp://c\"]}"),
                      "upstreams.app.endpoints[1]: the scheme must be http or https"),
        BadConfigCase("endpoint with another scheme",
                      ConfigTestSupport.withUpstream("{url: \"http://a\", endpoints: [\"https://b:1\"]}"),
                      "upstreams.app.endpoints[0]: must use the url's scheme (http://)"),
        BadConfigCase("unknown balance", ConfigTestSupport.withUpstream("{url: \"http://a\", balance: random}"),
                      "upstreams.app.balance: unknown balance \"random\" (expected round_robin or least_request)"),
        BadConfigCase("zero resolve interval", ConfigTestSupport.withUpstream("{url: \"http://a\", resolve_interval: 0s}"),
                      "upstreams.app.resolve_interval: must be greater than 0"),
        BadConfigCase("health check timeout over interval",
                      ConfigTestSupport.withUpstream("{url: \"http://a\", health_check: {interval: 1s, timeout: 2s}}"),
                      "upstreams.app.health_check.timeout: must not exceed the interval (1.0 seconds)"),
        BadConfigCase("health check misspelt", ConfigTestSupport.withUpstream("{url: \"http://a\", health_check: {pth: /h}}"),
                      "upstreams.app.health_check.pth: unknown key"),
        BadConfigCase("health check zero threshold", ConfigTestSupport.withUpstream("{url: \"http://a\", health_check: {healthy: 0}}"),
                      "upstreams.app.health_check.healthy: must be at least 1"),
        BadConfigCase("max_ejected without percent", ConfigTestSupport.withUpstream("{url: \"http://a\", outlier: {max_ejected: 50}}"),
                      "upstreams.app.outlier.max_ejected: expected a percentage from 0% to 100%, e.g. 20%, got \"50\""),
        BadConfigCase("budget over 100%", ConfigTestSupport.withUpstream("{url: \"http://a\", retry: {budget: 120%}}"),
                      "upstreams.app.retry.budget: expected a percentage from 0% to 100%, e.g. 20%, got \"120%\""),
        BadConfigCase("retry on 500", ConfigTestSupport.withUpstream("{url: \"http://a\", retry: {on: [connect, 500]}}"),
                      "upstreams.app.retry.on[1]: expected connect, reset, 502, 503 or 504, got \"500\""),
        BadConfigCase("too many attempts", ConfigTestSupport.withUpstream("{url: \"http://a\", retry: {attempts: 9}}"),
                      "upstreams.app.retry.attempts: must be between 1 and 5"),
        BadConfigCase("negative max_pending", ConfigTestSupport.withUpstream("{url: \"http://a\", max_pending: -1}"),
                      "upstreams.app.max_pending: must be at least 0"),
    ]

    @Test(arguments: refusals)
    func refused(_ badCase: BadConfigCase) {
        #expect(ConfigTestSupport.issueLines(badCase.yaml) == badCase.expected)
    }

    @Test func defaultsKeepOneURLAsItWas() throws {
        let config = try #require(ConfigTestSupport.config(ConfigTestSupport.minimalYAML))
        let upstream = config.upstreams[0]
        #expect(upstream.endpoints.isEmpty)
        #expect(upstream.resolveInterval == nil)
        #expect(upstream.balance == .roundRobin)
        #expect(upstream.healthCheck == nil)
        #expect(upstream.outlier == nil)
        #expect(upstream.retry == RetryConfig())
        #expect(upstream.retry.on == [.connect])
        #expect(!upstream.retry.retriesAfterSend)
        #expect(upstream.maxPending == nil)
    }

    @Test func everyKeyRead() throws {
        let yaml = ConfigTestSupport.withUpstream("""
            {url: "http://app.internal:4000/graphql", endpoints: ["http://10.0.0.5:4000", "http://10.0.0.6:4001"],
             resolve_interval: 30s, balance: least_request,
             health_check: {path: /health, interval: 5s, timeout: 1s, healthy: 2, unhealthy: 3},
             outlier: {consecutive_failures: 5, ejection: 30s, max_ejected: 50%},
             retry: {attempts: 2, on: [connect, reset, 503], budget: 20%}, max_pending: 1024}
            """)
        let upstream = try #require(ConfigTestSupport.config(yaml)).upstreams[0]
        #expect(upstream.endpoints.map(\.port) == [4000, 4001])
        #expect(upstream.resolveInterval == .seconds(30))
        #expect(upstream.balance == .leastRequest)
        #expect(upstream.healthCheck?.unhealthy == 3)
        #expect(upstream.outlier?.maxEjectedPercent == 50)
        #expect(upstream.retry.on == [.connect, .reset, .status(503)])
        #expect(upstream.retry.budgetPercent == 20)
        #expect(upstream.retry.retriesAfterSend)
        #expect(upstream.maxPending == 1024)
    }
}
