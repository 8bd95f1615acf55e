import Testing
@testable import GatehouseConfig

/// `gatehouse check` reports every problem in one pass, in file order.
@Suite struct AllIssuesAtOnceTests {
    @Test func fiveProblemsFiveLinesInFileOrder() {
        let yaml = """
            server:
              listn: "0.0.0.0:8080"
            upstreams:
              app:
                url: http://127.0.0.1:4000/graphql
                headers:
                  X-Service-Token: "${APP_SERVICE_TOKEN}"
            auth:
              user-jwt:
                type: jwt
                algorithms: [none]
                secret: "\(ConfigTestSupport.secret32)"
            routes:
              - path: /graphql/noauth
                upstream: ap
                auth: none
              - path: /graphql
                upstream: app
            """
        #expect(ConfigTestSupport.issueLines(yaml) == [
            "server.listn: unknown key",
            "upstreams.app.headers.X-Service-Token: environment variable APP_SERVICE_TOKEN is not set",
            "auth.user-jwt.algorithms[0]: \"none\" (unsigned tokens) is never accepted",
            "routes[0].upstream: unknown upstream \"ap\"",
            "routes[1].auth: required; write \"none\" for a public route",
        ])
    }

    @Test func crossReferencesAreCheckedEvenWhenARouteHasOtherProblems() {
        let yaml = """
            upstreams: {app: {url: "http://a"}}
            routes:
              - path: no-slash
                upstream: ap
                auth: [usr-jwt]
                persisted: sometimes
            """
        #expect(ConfigTestSupport.issueLines(yaml) == [
            "routes[0].path: must start with \"/\"",
            "routes[0].upstream: unknown upstream \"ap\"",
            "routes[0].auth[0]: unknown auth provider \"usr-jwt\"",
            "routes[0].persisted: unknown value \"sometimes\" (expected off, allow or only)",
        ])
    }

    @Test func aRefusedUpstreamIsStillKnownByName() {
        let yaml = """
            upstreams: {app: {url: "ftp://a"}}
            routes: [{path: /g, upstream: app, auth: none}]
            """
        #expect(ConfigTestSupport.issueLines(yaml) == ["upstreams.app.url: the scheme must be http or https"])
    }
}
