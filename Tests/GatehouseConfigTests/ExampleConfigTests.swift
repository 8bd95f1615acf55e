import Foundation
import Testing
@testable import GatehouseConfig

/// `config/gatehouse.yaml` is the documented example; it must keep loading, and say what it says.
@Suite struct ExampleConfigTests {
    static let environment = [
        "APP_SERVICE_TOKEN": "app-token",
        "AEM_BASIC": "YWVtOnNlY3JldA==",
        "SERVICE_JWT_SECRET": "0123456789abcdef0123456789abcdef",
        "IOS_KEY": "ios-key",
        "WEB_KEY": "web-key",
    ]

    static let path = ConfigTestSupport.repositoryRoot + "/config/gatehouse.yaml"

    private func load(environment: [String: String] = Self.environment) -> Result<GatewayConfig, ConfigErrors> {
        guard case .success(let text) = ConfigFileReader.read(Self.path) else {
            return .failure(ConfigErrors([ConfigIssue(path: "", message: "cannot read \(Self.path)")]))
        }
        return ConfigLoader.load(yaml: text, environment: environment, sourcePath: "config/gatehouse.yaml",
                                 files: FileChecks(baseDirectory: ConfigTestSupport.repositoryRoot))
    }

    @Test func loadsCleanly() throws {
        let config = try load().get()
        #expect(config.sourcePath == "config/gatehouse.yaml")
        #expect(config.upstreams.map(\.name) == ["app", "content"])
        #expect(config.auth.map(\.name) == ["user-jwt", "service-jwt", "firebase-users", "corp-sso", "app-keys"])
        #expect(config.routes.map(\.path) == ["/graphql/noauth", "/graphql", "/ops/*", "/internal/graphql", "/content/*",
                                              "/graphql/ws", "/graphql/upload"])
        var webSocket = WebSocketConfig()  // the defaults, with the token also taken from connection_init
        webSocket.tokenFrom = [.header, .connectionInit("Authorization")]
        #expect(config.routes.first { $0.path == "/graphql/ws" }?.websocket == webSocket)
        let upload = try #require(config.routes.last)
        #expect(upload.uploads == UploadsConfig(maxFiles: 10, maxFileSize: 100 * 1024 * 1024))
        #expect(upload.maxBodyBytes == 200 * 1024 * 1024)
        #expect(config.operations == OperationsConfig(dir: "config/operations"))
    }

    @Test func server() throws {
        let server = try load().get().server
        #expect(server == {
            var expected = ServerConfig()
            expected.trustedProxies = [
                CIDR(address: [127, 0, 0, 1], prefixLength: 32),
                CIDR(address: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], prefixLength: 128),
            ]
            return expected
        }())
        #expect(server.tls == nil)
        #expect(server.compression == CompressionConfig())
        let relocated = try load(environment: Self.environment.merging(["GATEHOUSE_LISTEN": "127.0.0.1:18080"]) { $1 }).get()
        #expect(relocated.server.listen == HostPort(host: "127.0.0.1", port: 18080))
    }

    @Test func upstreams() throws {
        let config = try load().get()
        let app = try #require(config.upstream(named: "app"))
        #expect(app.url == UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4000, path: "/graphql"))
        #expect(app.headers == [HeaderSetting(name: "X-Service-Token", value: "app-token")])
        #expect(app.tls == nil)
        let content = try #require(config.upstream(named: "content"))
        #expect(content.kind == .aem)
        #expect(content.aemConfig == "wknd-shared")
        #expect(content.url.port == 443)
        #expect(content.timeout == .seconds(15))
        #expect(content.headers == [HeaderSetting(name: "Authorization", value: "Basic YWVtOnNlY3JldA==")])
        #expect(content.tls?.serverName == "publish.example.com")
        #expect(content.tls?.verify == true)
    }

    /// The commented-out `server.tls` block, uncommented with its files replaced by readable
    /// ones, loads: the example stays a working template.
    @Test func commentedServerTLSBlockLoadsWhenUncommented() throws {
        guard case .success(var text) = ConfigFileReader.read(Self.path) else {
            Issue.record("cannot read \(Self.path)")
            return
        }
        for (commented, active) in [
            ("  # tls:\n", "  tls:\n"),
            ("  #   cert_file: /etc/gatehouse/tls/server.crt\n", "    cert_file: config/jwks.json\n"),
            ("  #   key_file: /etc/gatehouse/tls/server.key\n", "    key_file: config/jwks.json\n"),
            ("  #   client_ca_file: /etc/gatehouse/tls/clients-ca.crt\n", "    client_ca_file: config/jwks.json\n"),
        ] {
            #expect(text.contains(commented), "example lost \(commented)")
            text = text.replacingOccurrences(of: commented, with: active)
        }
        let config = try ConfigLoader.load(yaml: text, environment: Self.environment, sourcePath: nil,
                                           files: FileChecks(baseDirectory: ConfigTestSupport.repositoryRoot)).get()
        #expect(config.server.tls == ServerTLSConfig(certFile: "config/jwks.json", keyFile: "config/jwks.json",
                                                     clientCAFile: "config/jwks.json"))
    }

    @Test func authProviders() throws {
        let config = try load().get()
        guard case .jwt(let user) = config.authProvider(named: "user-jwt")?.kind,
              case .jwt(let service) = config.authProvider(named: "service-jwt")?.kind,
              case .apiKey(let keys) = config.authProvider(named: "app-keys")?.kind else {
            Issue.record("providers missing or of the wrong type")
            return
        }
        #expect(user.algorithms == ["RS256", "ES256"])
        #expect(user.jwksFile == "config/jwks.json")
        #expect(user.audience == ["ios-app", "web-app"])
        #expect(user.leeway == .seconds(30))
        #expect(user.claimsToHeaders == [HeaderSetting(name: "X-User-Id", value: "sub")])
        #expect(service.secret == Self.environment["SERVICE_JWT_SECRET"])
        #expect(service.audience == ["gatehouse"])
        #expect(keys.header == "X-Api-Key")
        #expect(keys.keys == ["ios-key", "web-key"])
    }

    @Test func publicDoor() throws {
        let route = try #require(try load().get().routes.first)
        #expect(route.auth == .none)
        #expect(route.persisted == .only)
        #expect(route.operations == ["createUserToken", "appsetting"])
        #expect(route.timeout == .seconds(5))
        #expect(route.headersSet == [HeaderSetting(name: "X-Client-Door", value: "public")])
        #expect(route.headersRemove == ["Cookie"])
        #expect(route.upstreamPath == "/graphql/noauth")
    }

    @Test func everySecretIsRequired() {
        guard case .failure(let errors) = load(environment: [:]) else {
            Issue.record("loaded without its secrets")
            return
        }
        #expect(errors.issues.map(\.description) == [
            "upstreams.app.headers.X-Service-Token: environment variable APP_SERVICE_TOKEN is not set",
            "upstreams.content.headers.Authorization: environment variable AEM_BASIC is not set",
            "auth.service-jwt.secret: environment variable SERVICE_JWT_SECRET is not set",
            "auth.app-keys.keys[0]: environment variable IOS_KEY is not set",
            "auth.app-keys.keys[1]: environment variable WEB_KEY is not set",
        ])
    }

    @Test func theJWKSetHoldsOnlyAPublicRSAKey() throws {
        let contents = try #require(FileChecks().contents(of: ConfigTestSupport.jwksPath))
        let text = String(decoding: contents, as: UTF8.self)
        #expect(text.contains("\"kid\": \"demo-rsa\""))
        #expect(text.contains("\"kty\": \"RSA\""))
        for privateMember in ["\"d\"", "\"p\"", "\"q\"", "\"dp\"", "\"dq\"", "\"qi\""] {
            #expect(!text.contains(privateMember))
        }
    }
}
