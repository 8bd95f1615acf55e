import Testing
@testable import GatehouseConfig

/// `config/demo.yaml` is what `gatehouse demo` serves with; it must keep loading, with its
/// development defaults and with the port `--port` sets.
@Suite struct DemoConfigTests {
    static let path = ConfigTestSupport.repositoryRoot + "/config/demo.yaml"

    private func load(environment: [String: String] = [:]) throws -> GatewayConfig {
        guard case .success(let text) = ConfigFileReader.read(Self.path) else {
            throw ConfigErrors([ConfigIssue(path: "", message: "cannot read \(Self.path)")])
        }
        return try ConfigLoader.load(yaml: text, environment: environment, sourcePath: "config/demo.yaml",
                                     files: FileChecks(baseDirectory: ConfigTestSupport.repositoryRoot)).get()
    }

    @Test func loadsWithTheDevelopmentDefaults() throws {
        let config = try load()
        #expect(config.server.listen == HostPort(host: "127.0.0.1", port: 8080))
        #expect(config.server.adminListen == HostPort(host: "127.0.0.1", port: 9901))
        #expect(config.operations == OperationsConfig(dir: "config/operations"))

        let demo = try #require(config.upstream(named: "demo"))
        #expect(demo.url.description == "http://127.0.0.1:9399/graphql")
        #expect(demo.headers == [HeaderSetting(name: "X-Service-Token", value: "demo-service-token")])
        let content = try #require(config.upstream(named: "content"))
        #expect(content.kind == .aem)
        #expect(content.aemConfig == "wknd-shared")

        guard case .jwt(let jwt) = try #require(config.authProvider(named: "user-jwt")).kind else {
            Issue.record("user-jwt is not a jwt provider")
            return
        }
        #expect(jwt.algorithms == ["HS256"])
        #expect(jwt.secret == "demo-secret-change-me-0123456789abcdef")
        #expect(jwt.claimsToHeaders == [HeaderSetting(name: "X-User-Id", value: "sub")])
    }

    @Test func hasBothDoorsTheContentRouteAndCallsByName() throws {
        let routes = Dictionary(uniqueKeysWithValues: try load().routes.map { ($0.path, $0) })
        #expect(routes.keys.sorted() == ["/content/*", "/graphql", "/graphql/noauth", "/ops/*"])
        let publicDoor = try #require(routes["/graphql/noauth"])
        #expect(publicDoor.auth == .none)
        #expect(publicDoor.operations == ["createUserToken", "appsetting"])
        #expect(publicDoor.upstreamPath == "/graphql/noauth")
        #expect(routes["/graphql"]?.auth == .anyOf(["user-jwt"]))
        #expect(routes["/graphql"]?.mapGraphQLErrors == true)
        #expect(routes["/content/*"]?.upstream == "content")
        #expect(routes["/ops/*"]?.persisted == .only)
    }

    @Test func theEnvironmentSetsPortsAndSecrets() throws {
        let config = try load(environment: [
            "GATEHOUSE_DEMO_PORT": "18080",
            "GATEHOUSE_DEMO_ADMIN_PORT": "19901",
            "GATEHOUSE_DEMO_BACKEND_PORT": "19399",
            "GATEHOUSE_DEMO_SECRET": "another-secret-0123456789abcdef-0123",
            "GATEHOUSE_DEMO_SERVICE_TOKEN": "svc",
        ])
        #expect(config.server.listen == HostPort(host: "127.0.0.1", port: 18080))
        #expect(config.server.adminListen == HostPort(host: "127.0.0.1", port: 19901))
        // The backend listens where both of its upstreams point.
        #expect(config.upstream(named: "demo")?.url.description == "http://127.0.0.1:19399/graphql")
        #expect(config.upstream(named: "content")?.url.description == "http://127.0.0.1:19399/")
        #expect(config.upstream(named: "demo")?.headers.first?.value == "svc")
        guard case .jwt(let jwt) = config.authProvider(named: "user-jwt")?.kind else {
            Issue.record("user-jwt is not a jwt provider")
            return
        }
        #expect(jwt.secret == "another-secret-0123456789abcdef-0123")
    }
}
