import Testing
@testable import GatehouseConfig

@Suite struct EnvironmentSubstitutionTests {
    static let environment = ["A": "alpha", "B": "beta", "EMPTY": "", "URL": "http://x:1/"]

    @Test(arguments: [
        ("${A}", "alpha"),
        ("pre-${A}-post", "pre-alpha-post"),
        ("${A}${B}", "alphabeta"),
        ("${MISSING:-fallback}", "fallback"),
        ("${EMPTY:-fallback}", "fallback"),
        ("${A:-fallback}", "alpha"),
        ("${EMPTY}", ""),
        ("${MISSING:-}", ""),
        ("${MISSING:-a:-b}", "a:-b"),
        ("${MISSING:-${A}", "${A"),
        ("$${A}", "${A}"),
        ("$$${A}", "$${A}"),
        ("$A", "$A"),
        ("$$", "$$"),
        ("cost: 5$", "cost: 5$"),
        ("{A}", "{A}"),
        ("${URL}graphql", "http://x:1/graphql"),
        ("no substitution", "no substitution"),
    ])
    func substitutes(_ text: String, _ expected: String) {
        #expect(EnvironmentSubstitution.substitute(text, environment: Self.environment) == .success(expected))
    }

    @Test(arguments: [
        ("${MISSING}", "environment variable MISSING is not set"),
        ("x ${A} ${MISSING} y", "environment variable MISSING is not set"),
        ("${A", "unterminated ${ (write $${ for a literal ${)"),
        ("${}", "empty variable name in ${}"),
        ("${:-x}", "empty variable name in ${}"),
        ("${1A}", "invalid environment variable name \"1A\""),
        ("${A B}", "invalid environment variable name \"A B\""),
    ])
    func refuses(_ text: String, _ message: String) {
        #expect(EnvironmentSubstitution.substitute(text, environment: Self.environment)
            == .failure(EnvironmentSubstitution.Problem(message: message)))
    }

    @Test func plainScalarsAreTypedAfterSubstitution() {
        let yaml = """
            server:
              workers: ${WORKERS}
              max_headers: "${MAX_HEADERS:-50}"
              listen: "${HOST:-127.0.0.1}:${PORT:-0}"
              access_log: ${LOG}
              idle_timeout: ${IDLE:-5s}
            \(ConfigTestSupport.minimalYAML)
            """
        let config = ConfigTestSupport.config(yaml, environment: ["WORKERS": "4", "PORT": "8088", "LOG": "off"])
        #expect(config?.server.workers == 4)
        #expect(config?.server.maxHeaders == 50)
        #expect(config?.server.listen == HostPort(host: "127.0.0.1", port: 8088))
        #expect(config?.server.accessLog == .off)
        #expect(config?.server.idleTimeout == .seconds(5))
    }

    @Test func substitutedTextStaysTextWhereTextIsExpected() {
        let yaml = """
            upstreams:
              app:
                url: http://a
                headers:
                  X-Token: ${TOKEN}
                  X-Flag: ${FLAG}
                  X-Empty: ${NONE:-}
            routes: [{path: /g, upstream: app, auth: none}]
            """
        let config = ConfigTestSupport.config(yaml, environment: ["TOKEN": "12345", "FLAG": "true"])
        #expect(config?.upstreams.first?.headers == [
            HeaderSetting(name: "X-Token", value: "12345"),
            HeaderSetting(name: "X-Flag", value: "true"),
            HeaderSetting(name: "X-Empty", value: ""),
        ])
    }

    @Test func quotedTextWithoutSubstitutionStaysText() {
        let yaml = ConfigTestSupport.withServer("{workers: \"4\"}")
        #expect(ConfigTestSupport.issueLines(yaml) == ["server.workers: expected an integer, got the quoted string \"4\""])
    }

    @Test func substitutedTextIsStillValidated() {
        let yaml = "server:\n  workers: ${WORKERS}\n" + ConfigTestSupport.minimalYAML
        #expect(ConfigTestSupport.issueLines(yaml, environment: ["WORKERS": "many"])
            == ["server.workers: expected an integer, got \"many\""])
    }

    @Test func keysAreNotSubstituted() {
        let yaml = ConfigTestSupport.withUpstream("{url: \"http://a\", \"${NAME}\": 1}")
        #expect(ConfigTestSupport.issueLines(yaml, environment: ["NAME": "timeout"]) == ["upstreams.app.${NAME}: unknown key"])
    }

    @Test func everyUnsetVariableIsReported() {
        let yaml = """
            upstreams: {app: {url: "${APP_URL}", headers: {X-Service-Token: "${APP_SERVICE_TOKEN}"}}}
            auth: {keys: {type: api_key, keys: ["${IOS_KEY}", "${WEB_KEY:-web}"]}}
            routes: [{path: /g, upstream: app, auth: keys}]
            """
        #expect(ConfigTestSupport.issueLines(yaml) == [
            "upstreams.app.url: environment variable APP_URL is not set",
            "upstreams.app.headers.X-Service-Token: environment variable APP_SERVICE_TOKEN is not set",
            "auth.keys.keys[0]: environment variable IOS_KEY is not set",
        ])
    }
}
