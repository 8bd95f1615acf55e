import Testing
@testable import GatehouseConfig

/// `stores:` and the `redis://` url: what is decoded, what is refused (the exact lines
/// `gatehouse check` prints), and limits naming stores.
@Suite struct StoreConfigTests {
    static func withStores(_ stores: String, limits: String = "[{key: ip, rate: 1/s, store: shared}]") -> String {
        """
        upstreams: {app: {url: "\(ConfigTestSupport.appURL)"}}
        stores:
        \(stores)
        routes: [{path: /g, upstream: app, auth: none, rate_limit: \(limits)}]
        """
    }

    // MARK: - The url

    static let goodURLs: [(text: String, expected: RedisURL)] = [
        ("redis://127.0.0.1:6379/0", RedisURL(host: "127.0.0.1", port: 6379, database: 0)),
        ("redis://redis.internal", RedisURL(host: "redis.internal", port: 6379, database: 0)),
        ("redis://10.0.0.5:7000/3", RedisURL(host: "10.0.0.5", port: 7000, database: 3)),
        ("redis://:s3cret@127.0.0.1:6379/1", RedisURL(host: "127.0.0.1", port: 6379, password: "s3cret", database: 1)),
        ("redis://:p%40ss%2Fword@127.0.0.1", RedisURL(host: "127.0.0.1", port: 6379, password: "p@ss/word", database: 0)),
        ("redis://[::1]:6380/2", RedisURL(host: "::1", port: 6380, database: 2)),
        ("redis://127.0.0.1:6379/", RedisURL(host: "127.0.0.1", port: 6379, database: 0)),
    ]

    @Test(arguments: goodURLs)
    func parsesURL(_ row: (text: String, expected: RedisURL)) throws {
        #expect(try RedisURLSyntax.parse(row.text).get() == row.expected)
    }

    static let badURLs: [(text: String, problem: String)] = [
        ("http://127.0.0.1:6379", "expected a redis://[:password@]host:port[/db] URL"),
        ("rediss://127.0.0.1:6379", "rediss:// (TLS) is not supported; use redis:// inside the pod network"),
        ("redis://user:pw@127.0.0.1", "user info must be \":password@\" (Redis ACL user names are not supported)"),
        ("redis://:@127.0.0.1", "the url's password is empty"),
        ("redis://:%zz@127.0.0.1", "the url's password has an invalid %-escape"),
        ("redis://127.0.0.1:6379/x", "the url's path must be a database number 0...65535"),
        ("redis://127.0.0.1:6379/70000", "the url's path must be a database number 0...65535"),
        ("redis://127.0.0.1:0", "the url has an invalid port \"0\" (1-65535)"),
        ("redis://127.0.0.1/0?timeout=1", "a query string or fragment is not allowed in the url"),
        ("redis:///0", "the url has no host"),
    ]

    @Test(arguments: badURLs)
    func refusesURL(_ row: (text: String, problem: String)) {
        guard case .failure(let problem) = RedisURLSyntax.parse(row.text) else {
            Issue.record("\(row.text) was accepted")
            return
        }
        #expect(problem.message == row.problem)
        #expect(!problem.message.contains("s3cret"))
    }

    @Test func descriptionLeavesThePasswordOut() {
        #expect(RedisURL(host: "10.0.0.5", port: 6379, password: "s3cret", database: 2).description == "redis://10.0.0.5:6379/2")
    }

    // MARK: - The section

    @Test func defaults() {
        let config = ConfigTestSupport.config(Self.withStores("  shared: {type: redis, url: \"redis://127.0.0.1:6379/0\"}"))
        #expect(config?.stores == [StoreConfig(name: "shared", url: RedisURL(host: "127.0.0.1"), password: nil,
                                               prefix: "gatehouse:", timeout: .milliseconds(50), onFailure: .local)])
        #expect(config?.routes.first?.rateLimits.first?.store == "shared")
    }

    @Test func everyFieldWritten() {
        let store = ConfigTestSupport.config(Self.withStores("""
              shared:
                type: redis
                url: "redis://:from-url@127.0.0.1:6380/4"
                password: "from-key"
                prefix: "app1:"
                timeout: 20ms
                on_failure: closed
            """))?.stores.first
        #expect(store?.password == "from-key")
        #expect(store?.url.database == 4)
        #expect(store?.prefix == "app1:")
        #expect(store?.timeout == .milliseconds(20))
        #expect(store?.onFailure == .closed)
    }

    @Test func passwordFromTheURLAndAnEmptyPasswordIsNone() {
        let fromURL = ConfigTestSupport.config(Self.withStores("  shared: {type: redis, url: \"redis://:pw@127.0.0.1\", password: \"\"}"))
        #expect(fromURL?.stores.first?.password == "pw")
        let none = ConfigTestSupport.config(Self.withStores("  shared: {type: redis, url: \"redis://127.0.0.1\", password: \"\"}"))
        #expect(none?.stores.first?.password == nil)
    }

    static let badSections: [BadConfigCase] = [
        BadConfigCase("type missing", withStores("  shared: {url: \"redis://127.0.0.1\"}"),
                      "stores.shared.type: required; redis"),
        BadConfigCase("unknown type", withStores("  shared: {type: memcached, url: \"redis://127.0.0.1\"}"),
                      "stores.shared.type: unknown store type \"memcached\" (expected redis)"),
        BadConfigCase("url missing", withStores("  shared: {type: redis}"),
                      "stores.shared.url: required; e.g. redis://127.0.0.1:6379/0"),
        BadConfigCase("bad url", withStores("  shared: {type: redis, url: \"redis://127.0.0.1:6379/db\"}"),
                      "stores.shared.url: the url's path must be a database number 0...65535"),
        BadConfigCase("zero timeout", withStores("  shared: {type: redis, url: \"redis://127.0.0.1\", timeout: 0}"),
                      "stores.shared.timeout: must be greater than 0"),
        BadConfigCase("unknown on_failure", withStores("  shared: {type: redis, url: \"redis://127.0.0.1\", on_failure: retry}"),
                      "stores.shared.on_failure: unknown on_failure \"retry\" (expected local, open or closed)"),
        BadConfigCase("misspelt key", withStores("  shared: {type: redis, url: \"redis://127.0.0.1\", prefx: a}"),
                      "stores.shared.prefx: unknown key"),
        BadConfigCase("memory redefined", withStores("  memory: {type: redis, url: \"redis://127.0.0.1\"}", limits: "[{key: ip, rate: 1/s}]"),
                      "stores.memory: \"memory\" is the built-in per-process store; give a shared store another name"),
        BadConfigCase("unknown store named by a limit", withStores("  shared: {type: redis, url: \"redis://127.0.0.1\"}",
                                                                    limits: "[{key: ip, rate: 1/s, store: sahred}]"),
                      "routes[0].rate_limit[0].store: unknown store \"sahred\" (expected \"memory\", \"shared\")"),
        BadConfigCase("two stores on one route", withStores("  shared: {type: redis, url: \"redis://127.0.0.1\"}",
                                                             limits: "[{key: ip, rate: 1/s, store: shared}, {key: route, rate: 9/s}]"),
                      "routes[0].rate_limit[1].store: every limit of a route uses the same store; routes[0].rate_limit[0] uses \"shared\""),
    ]

    @Test(arguments: badSections)
    func refused(_ badCase: BadConfigCase) {
        #expect(ConfigTestSupport.issueLines(badCase.yaml, environment: badCase.environment) == badCase.expected)
    }
}
