import Testing
@testable import GatehouseConfig

/// `routes[i].rate_limit` refusals, each with the exact lines `gatehouse check` prints.
@Suite struct BadRateLimitConfigTests {
    /// One route with `auth` and `rate_limit` as given; providers `user-jwt` (jwt) and
    /// `user-keys` (api_key) exist.
    static func route(auth: String = "none", _ limits: String) -> String {
        """
        upstreams: {app: {url: "\(ConfigTestSupport.appURL)"}}
        auth:
          user-jwt: {type: jwt, algorithms: [HS256], secret: "\(ConfigTestSupport.secret32)"}
          user-keys: {type: api_key, keys: [k1]}
        routes: [{path: /g, upstream: app, auth: \(auth), rate_limit: \(limits)}]
        """
    }

    static let cases: [BadConfigCase] = [
        BadConfigCase("misspelt key", route("[{key: ip, rate: 1/s, brust: 2}]"),
                      "routes[0].rate_limit[0].brust: unknown key"),
        BadConfigCase("key missing", route("[{rate: 1/s}]"),
                      "routes[0].rate_limit[0].key: required; ip, subject, api_key, header:NAME or route"),
        BadConfigCase("rate missing", route("[{key: ip}]"),
                      "routes[0].rate_limit[0].rate: required; e.g. 10/s, 100/m or 5000/h"),
        BadConfigCase("unknown key", route("[{key: user, rate: 1/s}]"),
                      "routes[0].rate_limit[0].key: \"user\" is not a limit key (expected ip, subject, api_key, header:NAME or route)"),
        BadConfigCase("bad header name", route("[{key: \"header:X Tenant\", rate: 1/s}]"),
                      "routes[0].rate_limit[0].key: \"X Tenant\" is not a valid header name"),
        BadConfigCase("empty header name", route("[{key: \"header:\", rate: 1/s}]"),
                      "routes[0].rate_limit[0].key: \"\" is not a valid header name"),
        BadConfigCase("rate without unit", route("[{key: ip, rate: 10}]"),
                      "routes[0].rate_limit[0].rate: invalid rate \"10\"; write e.g. 10/s, 100/m or 5000/h"),
        BadConfigCase("rate per day", route("[{key: ip, rate: 10/d}]"),
                      "routes[0].rate_limit[0].rate: invalid rate \"10/d\"; write e.g. 10/s, 100/m or 5000/h"),
        BadConfigCase("rate 0", route("[{key: ip, rate: 0/s}]"),
                      "routes[0].rate_limit[0].rate: rate \"0/s\" allows no request; remove the limit or raise it"),
        BadConfigCase("negative rate", route("[{key: ip, rate: -1/s}]"),
                      "routes[0].rate_limit[0].rate: invalid rate \"-1/s\"; write e.g. 10/s, 100/m or 5000/h"),
        BadConfigCase("rate too large", route("[{key: ip, rate: 2000000/s}]"),
                      "routes[0].rate_limit[0].rate: rate \"2000000/s\" allows more than 1000000 requests per window"),
        BadConfigCase("burst 0", route("[{key: ip, rate: 1/s, burst: 0}]"),
                      "routes[0].rate_limit[0].burst: must be between 1 and 1000000"),
        BadConfigCase("burst as text", route("[{key: ip, rate: 1/s, burst: many}]"),
                      "routes[0].rate_limit[0].burst: expected an integer, got \"many\""),
        BadConfigCase("bad policy name", route("[{name: \"per ip\", key: ip, rate: 1/s}]"),
                      "routes[0].rate_limit[0].name: a name may use only letters, digits, \"-\", \"_\" and \".\""),
        BadConfigCase("duplicate policy names", route("[{name: a, key: ip, rate: 1/s}, {name: a, key: route, rate: 9/s}]"),
                      "routes[0].rate_limit[1].name: policy name \"a\" is already used by routes[0].rate_limit[0]; give each limit of a route its own name"),
        BadConfigCase("duplicate default names", route("[{key: ip, rate: 1/s}, {key: ip, rate: 100/h}]"),
                      "routes[0].rate_limit[1].name: policy name \"ip\" is already used by routes[0].rate_limit[0]; give each limit of a route its own name"),
        BadConfigCase("unknown store", route("[{key: ip, rate: 1/s, store: shared}]"),
                      "routes[0].rate_limit[0].store: unknown store \"shared\" (expected \"memory\")"),
        BadConfigCase("subject on a public route", route("[{key: ip, rate: 1/s}, {key: subject, rate: 1/s}]"),
                      "routes[0].rate_limit[1].key: \"subject\" needs an authenticated route; this route has auth: none"),
        BadConfigCase("api_key on a public route", route("[{key: api_key, rate: 1/s}]"),
                      "routes[0].rate_limit[0].key: \"api_key\" needs an authenticated route; this route has auth: none"),
        BadConfigCase("api_key without an api_key provider", route(auth: "user-jwt", "[{key: api_key, rate: 1/s}]"),
                      "routes[0].rate_limit[0].key: \"api_key\" needs an api_key provider in the route's auth; none of user-jwt is one"),
        BadConfigCase("subject with only api keys", route(auth: "[user-keys]", "[{key: subject, rate: 1/s}]"),
                      "routes[0].rate_limit[0].key: \"subject\" needs a jwt provider in the route's auth; API keys have no subject (use key: api_key)"),
        BadConfigCase("not a list", route("{key: ip, rate: 1/s}"),
                      "routes[0].rate_limit: expected a list, got a mapping"),
        BadConfigCase("every problem at once", route("[{key: subject, rate: 0/m}, {key: ip, rate: 1/s, burst: 0, store: redis}]"),
                      "routes[0].rate_limit[0].key: \"subject\" needs an authenticated route; this route has auth: none",
                      "routes[0].rate_limit[0].rate: rate \"0/m\" allows no request; remove the limit or raise it",
                      "routes[0].rate_limit[1].burst: must be between 1 and 1000000",
                      "routes[0].rate_limit[1].store: unknown store \"redis\" (expected \"memory\")"),
    ]

    @Test(arguments: cases)
    func refused(_ badCase: BadConfigCase) {
        #expect(ConfigTestSupport.issueLines(badCase.yaml, environment: badCase.environment) == badCase.expected)
    }
}
