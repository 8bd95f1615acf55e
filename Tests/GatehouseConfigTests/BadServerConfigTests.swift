import Testing
@testable import GatehouseConfig

/// `server:` and document-level refusals, each with the exact lines `gatehouse check` prints.
@Suite struct BadServerConfigTests {
    static let cases: [BadConfigCase] = [
        BadConfigCase("misspelt key", ConfigTestSupport.withServer("{listn: \"0.0.0.0:80\"}"),
                      "server.listn: unknown key"),
        BadConfigCase("port out of range", ConfigTestSupport.withServer("{listen: \"0.0.0.0:70000\"}"),
                      "server.listen: invalid port \"70000\" (0-65535)"),
        BadConfigCase("IPv6 without brackets", ConfigTestSupport.withServer("{listen: \"::1:80\"}"),
                      "server.listen: IPv6 addresses need brackets: [::1]:80"),
        BadConfigCase("listen without port", ConfigTestSupport.withServer("{listen: \"[::1]\"}"),
                      "server.listen: expected host:port or [v6]:port, got \"[::1]\""),
        BadConfigCase("listen without host", ConfigTestSupport.withServer("{listen: \":8080\"}"),
                      "server.listen: \":8080\" has no host; write e.g. 0.0.0.0:8080 for every address"),
        BadConfigCase("quoted integer", ConfigTestSupport.withServer("{workers: \"4\"}"),
                      "server.workers: expected an integer, got the quoted string \"4\""),
        BadConfigCase("negative workers", ConfigTestSupport.withServer("{workers: -1}"),
                      "server.workers: must be between 0 and 4096"),
        BadConfigCase("zero max_connections", ConfigTestSupport.withServer("{max_connections: 0}"),
                      "server.max_connections: must be at least 1"),
        BadConfigCase("duration without unit", ConfigTestSupport.withServer("{header_timeout: 10}"),
                      "server.header_timeout: duration \"10\" needs a unit, e.g. 10s or 10ms"),
        BadConfigCase("zero timeout", ConfigTestSupport.withServer("{body_timeout: 0}"),
                      "server.body_timeout: must be greater than 0"),
        BadConfigCase("fractional duration", ConfigTestSupport.withServer("{idle_timeout: 1.5s}"),
                      "server.idle_timeout: invalid duration \"1.5s\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        BadConfigCase("units out of order", ConfigTestSupport.withServer("{drain_timeout: 30s1m}"),
                      "server.drain_timeout: invalid duration \"30s1m\"; write e.g. 250ms, 10s, 1m30s or 2h"),
        BadConfigCase("decimal size unit", ConfigTestSupport.withServer("{max_body_bytes: 10MB}"),
                      "server.max_body_bytes: size \"10MB\": use bytes or the binary units KiB, MiB, GiB (e.g. 10MiB)"),
        BadConfigCase("size without number", ConfigTestSupport.withServer("{max_header_bytes: lots}"),
                      "server.max_header_bytes: invalid size \"lots\"; write bytes (e.g. 65536) or 16KiB, 10MiB, 1GiB"),
        BadConfigCase("CIDR prefix too long", ConfigTestSupport.withServer("{trusted_proxies: [\"10.0.0.0/33\"]}"),
                      "server.trusted_proxies[0]: invalid prefix length in \"10.0.0.0/33\" (0-32)"),
        BadConfigCase("CIDR not an address", ConfigTestSupport.withServer("{trusted_proxies: [10.0.0.256]}"),
                      "server.trusted_proxies[0]: invalid CIDR \"10.0.0.256\"; write e.g. 10.0.0.0/8, fd00::/8 or 192.0.2.7"),
        BadConfigCase("trusted_proxies not a list", ConfigTestSupport.withServer("{trusted_proxies: 10.0.0.0/8}"),
                      "server.trusted_proxies: expected a list, got a string"),
        BadConfigCase("access_log false", ConfigTestSupport.withServer("{access_log: false}"),
                      "server.access_log: expected a string, got a boolean"),
        BadConfigCase("admin_listen without port", ConfigTestSupport.withServer("{admin_listen: localhost}"),
                      "server.admin_listen: expected host:port or [v6]:port, got \"localhost\""),
        BadConfigCase("server is a list", ConfigTestSupport.withServer("[1]"),
                      "server: expected a mapping, got a list"),
        BadConfigCase("duplicate key", "server:\n  listen: \"0.0.0.0:1\"\n  listen: \"0.0.0.0:2\"\n"
                      + "upstreams: {app: {url: \"http://a\"}}\nroutes: [{path: /g, upstream: app, auth: none}]",
                      "server.listen: duplicate key (first at line 2)"),
        BadConfigCase("misspelt section", "upstreams: {app: {url: \"http://a\"}}\nrutes: [{path: /g, upstream: app, auth: none}]",
                      "routes: required; define at least one route", "rutes: unknown key"),
        BadConfigCase("document is a list", "- server", "the configuration must be a mapping with server, upstreams, auth, operations, stores and routes"),
        BadConfigCase("empty document", "# nothing here\n",
                      "upstreams: required; define at least one upstream", "routes: required; define at least one route"),
        BadConfigCase("anchor", "upstreams: {app: {url: &u \"http://a\"}}\nroutes: [{path: /g, upstream: app, auth: none}]",
                      "line 1, column 24: anchors (&name) and aliases are not supported; write the value out"),
        BadConfigCase("two documents", ConfigTestSupport.minimalYAML + "\n---\nserver: {}\n",
                      "line 8, column 1: more than one YAML document; a configuration file holds exactly one"),
        BadConfigCase("unsupported tag", "server: {workers: !!binary AAAA}",
                      "line 1, column 19: unsupported tag tag:yaml.org,2002:binary"),
        BadConfigCase("YAML syntax", "server:\n  listen: [\"0.0.0.0:80\"\n",
                      "line 3, column 1: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 11)"),
    ]

    @Test(arguments: cases)
    func refused(_ badCase: BadConfigCase) {
        #expect(ConfigTestSupport.issueLines(badCase.yaml, environment: badCase.environment) == badCase.expected)
    }
}
