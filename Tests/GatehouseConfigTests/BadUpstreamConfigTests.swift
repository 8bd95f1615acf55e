import Testing
@testable import GatehouseConfig

/// `upstreams:` refusals, each with the exact lines `gatehouse check` prints.
@Suite struct BadUpstreamConfigTests {
    static let cases: [BadConfigCase] = [
        BadConfigCase("no upstreams", "upstreams: {}\nroutes: [{path: /g, upstream: app, auth: none}]",
                      "upstreams: define at least one upstream", "routes[0].upstream: unknown upstream \"app\""),
        BadConfigCase("url missing", ConfigTestSupport.withUpstream("{kind: graphql}"),
                      "upstreams.app.url: required; e.g. http://127.0.0.1:4000/graphql"),
        BadConfigCase("ftp url", ConfigTestSupport.withUpstream("{url: \"ftp://files.example.com\"}"),
                      "upstreams.app.url: the scheme must be http or https"),
        BadConfigCase("relative url", ConfigTestSupport.withUpstream("{url: \"/graphql\"}"),
                      "upstreams.app.url: expected an absolute http:// or https:// URL"),
        BadConfigCase("user info", ConfigTestSupport.withUpstream("{url: \"http://user:hunter2@api.internal/\"}"),
                      "upstreams.app.url: user info (user:password@) is not allowed in the url; send credentials with headers"),
        BadConfigCase("query string", ConfigTestSupport.withUpstream("{url: \"http://api.internal/graphql?debug=1\"}"),
                      "upstreams.app.url: a query string is not allowed in the url"),
        BadConfigCase("fragment", ConfigTestSupport.withUpstream("{url: \"http://api.internal/graphql#top\"}"),
                      "upstreams.app.url: a fragment (#…) is not allowed in the url"),
        BadConfigCase("port zero", ConfigTestSupport.withUpstream("{url: \"http://api.internal:0/\"}"),
                      "upstreams.app.url: the url has an invalid port \"0\" (1-65535)"),
        BadConfigCase("no host", ConfigTestSupport.withUpstream("{url: \"http:///graphql\"}"),
                      "upstreams.app.url: the url has no host"),
        BadConfigCase("unknown kind", ConfigTestSupport.withUpstream("{url: \"http://a\", kind: rest}"),
                      "upstreams.app.kind: unknown kind \"rest\" (expected graphql or aem)"),
        BadConfigCase("aem without aem_config", ConfigTestSupport.withUpstream("{url: \"http://a\", kind: aem}"),
                      "upstreams.app.aem_config: required for kind: aem"),
        BadConfigCase("aem_config on graphql", ConfigTestSupport.withUpstream("{url: \"http://a\", aem_config: wknd}"),
                      "upstreams.app.aem_config: only for kind: aem"),
        BadConfigCase("aem_config with a slash", ConfigTestSupport.withUpstream("{url: \"http://a\", kind: aem, aem_config: a/b}"),
                      "upstreams.app.aem_config: must be one path segment such as wknd-shared"),
        BadConfigCase("misspelt timeout", ConfigTestSupport.withUpstream("{url: \"http://a\", timout: 5s}"),
                      "upstreams.app.timout: unknown key"),
        BadConfigCase("max_idle negative", ConfigTestSupport.withUpstream("{url: \"http://a\", max_idle: -1}"),
                      "upstreams.app.max_idle: must be at least 0"),
        BadConfigCase("invalid header name", ConfigTestSupport.withUpstream("{url: \"http://a\", headers: {X Bad: v}}"),
                      "upstreams.app.headers.X Bad: \"X Bad\" is not a valid header name"),
        BadConfigCase("secret with a newline",
                      ConfigTestSupport.withUpstream("{url: \"http://a\", headers: {X-Service-Token: \"${APP_SERVICE_TOKEN}\"}}"),
                      environment: ["APP_SERVICE_TOKEN": "s3cr3t-value\n"],
                      "upstreams.app.headers.X-Service-Token: the value contains CR, LF, NUL or another control character (value not shown)"),
        BadConfigCase("NUL in a header value", ConfigTestSupport.withUpstream("{url: \"http://a\", headers: {X-A: \"a\\0b\"}}"),
                      "upstreams.app.headers.X-A: the value contains CR, LF, NUL or another control character (value not shown)"),
        BadConfigCase("unset variable",
                      ConfigTestSupport.withUpstream("{url: \"http://a\", headers: {X-Service-Token: \"${APP_SERVICE_TOKEN}\"}}"),
                      "upstreams.app.headers.X-Service-Token: environment variable APP_SERVICE_TOKEN is not set"),
        BadConfigCase("gateway-managed header", ConfigTestSupport.withUpstream("{url: \"http://a\", headers: {Host: example.com}}"),
                      "upstreams.app.headers.Host: Host is set by the gateway and cannot be configured"),
        BadConfigCase("same header in another case", ConfigTestSupport.withUpstream("{url: \"http://a\", headers: {X-A: \"1\", x-a: \"2\"}}"),
                      "upstreams.app.headers.x-a: same header as X-A (header names are case-insensitive)"),
        BadConfigCase("tls on http", ConfigTestSupport.withUpstream("{url: \"http://a\", tls: {verify: true}}"),
                      "upstreams.app.tls: only for https upstreams; the url is http://"),
        BadConfigCase("client certificate without key",
                      ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {cert_file: \"\(ConfigTestSupport.plainFilePath)\"}}"),
                      "upstreams.app.tls.key_file: required when cert_file is set"),
        BadConfigCase("key without client certificate",
                      ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {key_file: \"\(ConfigTestSupport.plainFilePath)\"}}"),
                      "upstreams.app.tls.cert_file: required when key_file is set"),
        BadConfigCase("server_name with a space", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {server_name: \"publish example.com\"}}"),
                      "upstreams.app.tls.server_name: \"publish example.com\" is not a DNS name or IP address"),
        BadConfigCase("server_name wildcard", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {server_name: \"*.example.com\"}}"),
                      "upstreams.app.tls.server_name: \"*.example.com\" is not a DNS name or IP address"),
        BadConfigCase("server_name with underscore", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {server_name: publish_host}}"),
                      "upstreams.app.tls.server_name: \"publish_host\" is not a DNS name or IP address"),
        BadConfigCase("server_name not an address", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {server_name: 10.0.0.256}}"),
                      "upstreams.app.tls.server_name: \"10.0.0.256\" is not a DNS name or IP address"),
        BadConfigCase("server_name with a port", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {server_name: \"publish.internal:443\"}}"),
                      "upstreams.app.tls.server_name: \"publish.internal:443\" is not a DNS name or IP address"),
        BadConfigCase("server_name with a trailing dot", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {server_name: publish.example.com.}}"),
                      "upstreams.app.tls.server_name: write the name without a trailing dot: \"publish.example.com\""),
        BadConfigCase("server_name bracketed IPv6", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {server_name: \"[2001:db8::1]\"}}"),
                      "upstreams.app.tls.server_name: write the IPv6 address without brackets: \"2001:db8::1\""),
        BadConfigCase("server_name empty", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {server_name: \"\"}}"),
                      "upstreams.app.tls.server_name: must not be empty"),
        BadConfigCase("server_name a URL", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {server_name: \"https://publish.internal\"}}"),
                      "upstreams.app.tls.server_name: \"https://publish.internal\" is not a DNS name or IP address"),
        BadConfigCase("tls misspelt key", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {verfy: false}}"),
                      "upstreams.app.tls.verfy: unknown key"),
        BadConfigCase("missing CA file", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {ca_file: /nonexistent/ca.pem}}"),
                      "upstreams.app.tls.ca_file: cannot read \"/nonexistent/ca.pem\": No such file or directory"),
        BadConfigCase("verify yes", ConfigTestSupport.withUpstream("{url: \"https://a\", tls: {verify: yes}}"),
                      "upstreams.app.tls.verify: expected true or false, got \"yes\""),
        BadConfigCase("invalid upstream name", "upstreams: {\"my app\": {url: \"http://a\"}}\nroutes: [{path: /g, upstream: my app, auth: none}]",
                      "upstreams.my app: a name may use only letters, digits, \"-\", \"_\" and \".\""),
    ]

    @Test(arguments: cases)
    func refused(_ badCase: BadConfigCase) {
        #expect(ConfigTestSupport.issueLines(badCase.yaml, environment: badCase.environment) == badCase.expected)
    }

    @Test func secretValuesNeverAppearInMessages() {
        let yaml = ConfigTestSupport.withUpstream("{url: \"http://a\", headers: {X-Token: \"${TOKEN}\"}}")
        let lines = ConfigTestSupport.issueLines(yaml, environment: ["TOKEN": "hunter2-secret\r\nX-Evil: 1"])
        #expect(lines.count == 1)
        #expect(!lines.joined().contains("hunter2"))
    }
}
