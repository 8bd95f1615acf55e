import Foundation
import GatehouseConfig
import Testing
@testable import gatehouse

@Suite struct DemoBackendConfigTests {
    static let secret = "demo-secret-0123456789abcdef-0123456789"

    static func load(_ yaml: String) throws -> GatewayConfig {
        try ConfigLoader.load(yaml: yaml, environment: [:]).get()
    }

    @Test func demoConfigIsValidAndHasBothDoors() throws {
        let yaml = DemoBackend.demoConfigYAML(gatewayPort: 18080, backendPort: 19399, adminPort: 19901,
                                              secret: Self.secret, serviceToken: "svc-token",
                                              operationsDirectory: nil)
        let config = try Self.load(yaml)
        #expect(config.server.listen == HostPort(host: "127.0.0.1", port: 18080))
        #expect(config.server.adminListen == HostPort(host: "127.0.0.1", port: 19901))
        #expect(config.operations == nil)

        let demo = try #require(config.upstream(named: "demo"))
        #expect(demo.url.description == "http://127.0.0.1:19399/graphql")
        #expect(demo.headers == [HeaderSetting(name: "X-Service-Token", value: "svc-token")])
        let content = try #require(config.upstream(named: "content"))
        #expect(content.kind == .aem)
        #expect(content.aemConfig == "wknd-shared")

        guard case .jwt(let jwt) = try #require(config.authProvider(named: "user-jwt")).kind else {
            Issue.record("user-jwt is not a jwt provider")
            return
        }
        #expect(jwt.algorithms == ["HS256"])
        #expect(jwt.secret == Self.secret)
        #expect(jwt.claimsToHeaders == [HeaderSetting(name: "X-User-Id", value: "sub")])

        let routes = Dictionary(uniqueKeysWithValues: config.routes.map { ($0.path, $0) })
        let publicDoor = try #require(routes["/graphql/noauth"])
        #expect(publicDoor.auth == .none)
        #expect(publicDoor.operations == ["createUserToken", "appsetting"])
        #expect(publicDoor.upstreamPath == "/graphql/noauth")
        #expect(routes["/graphql"]?.auth == .anyOf(["user-jwt"]))
        #expect(routes["/graphql"]?.mapGraphQLErrors == true)
        #expect(routes["/content/*"]?.upstream == "content")
        #expect(routes["/ops/*"]?.persisted == .only)
    }

    @Test(arguments: ["plain", "with \"quotes\" and \\ backslash", "looks like ${HOME} a variable", "tab\there"])
    func secretsAreWrittenAsTheyAre(_ value: String) throws {
        let yaml = DemoBackend.demoConfigYAML(gatewayPort: 8080, backendPort: 9399, adminPort: 9901,
                                              secret: Self.secret + value, serviceToken: value,
                                              operationsDirectory: nil)
        let config = try Self.load(yaml)
        #expect(config.upstream(named: "demo")?.headers.first?.value == value)
    }

    @Test func operationsDirectoryIsUsedWhenGiven() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-ops-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let yaml = DemoBackend.demoConfigYAML(gatewayPort: 8080, backendPort: 9399, adminPort: 9901,
                                              secret: Self.secret, serviceToken: "t", operationsDirectory: directory)
        #expect(try Self.load(yaml).operations?.dir == directory)
    }

    @Test func walkthroughUsesThePortAndToken() {
        let text = DemoBackend.curlWalkthrough(gatewayPort: 18080, token: "abc.def.ghi")
        #expect(text.contains("TOKEN='abc.def.ghi'"))
        #expect(text.contains("http://127.0.0.1:18080/graphql/noauth"))
        #expect(text.contains("http://127.0.0.1:18080/content/adventure-by-slug?slug=bali-surf-camp"))
        #expect(text.contains("http://127.0.0.1:18080/ops/listMoviesByGenre?genre=comedy&limit=5"))
        #expect(!text.contains("9399/"))
    }
}
