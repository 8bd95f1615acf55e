import Testing
@testable import GatehouseConfig

/// Configurations that load, compared field by field with the values they must produce.
@Suite struct GoodConfigTests {
    @Test func minimalConfigTakesTheDefaults() throws {
        let config = try #require(ConfigTestSupport.config(ConfigTestSupport.minimalYAML))
        var upstream = UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4000, path: "/graphql"))
        upstream.kind = .graphql
        let expected = GatewayConfig(server: ServerConfig(), upstreams: [upstream], auth: [], operations: nil,
                                     routes: [RouteConfig(path: "/graphql", upstream: "app", auth: .none)])
        #expect(config == expected)
        #expect(config.routes.first?.methods == ["GET", "POST"])
        #expect(config.routes.first?.persisted == .allow)
        #expect(config.server.adminListen == HostPort(host: "127.0.0.1", port: 9901))
        #expect(config.server.tls == nil)
        #expect(config.server.compression == CompressionConfig())
    }

    @Test func everyKeyRoundTrips() throws {
        let yaml = """
            server:
              listen: "[::]:9000"
              workers: 3
              max_connections: 500
              header_timeout: 5s
              body_timeout: 1m
              idle_timeout: 1m30s
              max_request_line: 4KiB
              max_header_bytes: 16KiB
              max_headers: 50
              max_body_bytes: 1MiB
              drain_timeout: 0
              trusted_proxies: [10.0.0.0/8, "::1"]
              admin_listen: ""
              access_log: /var/log/gatehouse/access.log
              tls:
                cert_file: "\(ConfigTestSupport.plainFilePath)"
                key_file: "\(ConfigTestSupport.jwksPath)"
                client_ca_file: "\(ConfigTestSupport.plainFilePath)"
              compression:
                enabled: true
                level: 4
                min_size: 512
                types: [application/json, text/plain]
                max_inflated_size: 2MiB
            upstreams:
              app:
                url: http://10.1.2.3:4000/graphql
                connect_timeout: 500ms
                timeout: 20s
                max_connections: 32
                max_idle: 0
                headers: {X-Service-Token: "${TOKEN}", X-Env: prod}
              content:
                url: https://publish.example.com:8443
                kind: aem
                aem_config: wknd-shared
                tls:
                  ca_file: "\(ConfigTestSupport.plainFilePath)"
                  verify: false
                  server_name: publish.internal
                  cert_file: "\(ConfigTestSupport.plainFilePath)"
                  key_file: "\(ConfigTestSupport.plainFilePath)"
            auth:
              user-jwt:
                type: jwt
                algorithms: [RS256, PS256, ES384]
                jwks_file: "\(ConfigTestSupport.jwksPath)"
                issuer: https://auth.example.com/
                audience: ios-app
                leeway: 45s
                claims_to_headers: {X-User-Id: sub, X-Tenant: tenant}
              service:
                type: jwt
                algorithms: [HS512]
                secret: "${SECRET}"
              keys:
                type: api_key
                header: X-App-Key
                keys: [k1, 12345]
            operations:
              dir: "\(ConfigTestSupport.directoryPath)"
            routes:
              - path: /content/*
                methods: [GET, HEAD]
                upstream: content
                upstream_path: /graphql/execute.json/wknd-shared/
                auth: [user-jwt, keys]
                persisted: only
                operations: [adventureBySlug, _private2]
                timeout: 2s
                headers:
                  set: {X-Door: content}
                  remove: [Cookie, Authorization]
                map_graphql_errors: true
              - path: /graphql
                upstream: app
                auth: service
                persisted: off
            """
        let config = try #require(ConfigTestSupport.config(yaml, environment: ["TOKEN": "t0k3n", "SECRET": ConfigTestSupport.secret32]))

        var server = ServerConfig()
        server.listen = HostPort(host: "::", port: 9000)
        server.workers = 3
        server.maxConnections = 500
        server.headerTimeout = .seconds(5)
        server.bodyTimeout = .seconds(60)
        server.idleTimeout = .seconds(90)
        server.maxRequestLine = 4096
        server.maxHeaderBytes = 16384
        server.maxHeaders = 50
        server.maxBodyBytes = 1_048_576
        server.drainTimeout = .zero
        server.trustedProxies = [CIDR(address: [10, 0, 0, 0], prefixLength: 8),
                                 CIDR(address: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], prefixLength: 128)]
        server.adminListen = nil
        server.accessLog = .file("/var/log/gatehouse/access.log")
        server.tls = ServerTLSConfig(certFile: ConfigTestSupport.plainFilePath, keyFile: ConfigTestSupport.jwksPath,
                                     clientCAFile: ConfigTestSupport.plainFilePath)
        server.compression.level = 4
        server.compression.minSize = 512
        server.compression.types = ["application/json", "text/plain"]
        server.compression.maxInflatedSize = 2 << 20

        var app = UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "10.1.2.3", port: 4000, path: "/graphql"))
        app.connectTimeout = .milliseconds(500)
        app.timeout = .seconds(20)
        app.maxConnections = 32
        app.maxIdle = 0
        app.headers = [HeaderSetting(name: "X-Service-Token", value: "t0k3n"), HeaderSetting(name: "X-Env", value: "prod")]

        var content = UpstreamConfig(name: "content", url: UpstreamURL(scheme: .https, host: "publish.example.com", port: 8443, path: "/"))
        content.kind = .aem
        content.aemConfig = "wknd-shared"
        var tls = UpstreamTLSConfig()
        tls.caFile = ConfigTestSupport.plainFilePath
        tls.verify = false
        tls.serverName = "publish.internal"
        tls.certFile = ConfigTestSupport.plainFilePath
        tls.keyFile = ConfigTestSupport.plainFilePath
        content.tls = tls

        var userJWT = JWTProviderConfig()
        userJWT.algorithms = ["RS256", "PS256", "ES384"]
        userJWT.jwksFile = ConfigTestSupport.jwksPath
        userJWT.issuer = "https://auth.example.com/"
        userJWT.audience = ["ios-app"]
        userJWT.leeway = .seconds(45)
        userJWT.claimsToHeaders = [HeaderSetting(name: "X-User-Id", value: "sub"), HeaderSetting(name: "X-Tenant", value: "tenant")]
        var serviceJWT = JWTProviderConfig()
        serviceJWT.algorithms = ["HS512"]
        serviceJWT.secret = ConfigTestSupport.secret32
        var keys = APIKeyProviderConfig()
        keys.header = "X-App-Key"
        keys.keys = ["k1", "12345"]

        var contentRoute = RouteConfig(path: "/content/*", upstream: "content", auth: .anyOf(["user-jwt", "keys"]))
        contentRoute.methods = ["GET", "HEAD"]
        contentRoute.upstreamPath = "/graphql/execute.json/wknd-shared/"
        contentRoute.persisted = .only
        contentRoute.operations = ["adventureBySlug", "_private2"]
        contentRoute.timeout = .seconds(2)
        contentRoute.headersSet = [HeaderSetting(name: "X-Door", value: "content")]
        contentRoute.headersRemove = ["Cookie", "Authorization"]
        contentRoute.mapGraphQLErrors = true
        var graphqlRoute = RouteConfig(path: "/graphql", upstream: "app", auth: .anyOf(["service"]))
        graphqlRoute.persisted = .off

        #expect(config.server == server)
        #expect(config.upstreams == [app, content])
        #expect(config.auth == [
            AuthProviderConfig(name: "user-jwt", kind: .jwt(userJWT)),
            AuthProviderConfig(name: "service", kind: .jwt(serviceJWT)),
            AuthProviderConfig(name: "keys", kind: .apiKey(keys)),
        ])
        #expect(config.operations == OperationsConfig(dir: ConfigTestSupport.directoryPath))
        #expect(config.routes == [contentRoute, graphqlRoute])
        #expect(config.routes.first?.isPrefix == true)
        #expect(config.routes.first?.matchPath == "/content/")
    }

    @Test(arguments: [
        ("auth: none", RouteConfig.Auth.none),
        ("auth: keys", .anyOf(["keys"])),
        ("auth: [keys]", .anyOf(["keys"])),
        ("auth: [keys, other]", .anyOf(["keys", "other"])),
    ])
    func routeAuthForms(_ line: String, _ expected: RouteConfig.Auth) {
        let yaml = """
            upstreams: {app: {url: "http://a"}}
            auth: {keys: {type: api_key, keys: [a]}, other: {type: api_key, header: X-Other, keys: [b]}}
            routes:
              - path: /g
                upstream: app
                \(line)
            """
        #expect(ConfigTestSupport.config(yaml)?.routes.first?.auth == expected)
    }

    @Test(arguments: [
        ("stdout", AccessLogTarget.stdout),
        ("off", .off),
        ("logs/access.log", .file("logs/access.log")),
    ])
    func accessLogTargets(_ value: String, _ expected: AccessLogTarget) {
        #expect(ConfigTestSupport.config(ConfigTestSupport.withServer("{access_log: \(value)}"))?.server.accessLog == expected)
    }

    @Test func audienceListAndDefaults() throws {
        let yaml = ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [HS256], secret: \(ConfigTestSupport.secret32), audience: [a, b]}}")
        let provider = try #require(ConfigTestSupport.config(yaml)?.auth.first)
        guard case .jwt(let jwt) = provider.kind else {
            Issue.record("not a jwt provider")
            return
        }
        #expect(jwt.audience == ["a", "b"])
        #expect(jwt.leeway == .zero)
        #expect(jwt.issuer == nil)
        #expect(jwt.jwksFile == nil)
    }

    @Test func apiKeyHeaderDefault() throws {
        let provider = try #require(ConfigTestSupport.config(ConfigTestSupport.withAuth("{k: {type: api_key, keys: [a]}}"))?.auth.first)
        #expect(provider.kind == .apiKey({ var keys = APIKeyProviderConfig(); keys.keys = ["a"]; return keys }()))
    }

    @Test func emptySectionsReadAsEmpty() {
        let yaml = "server:\nauth:\n" + ConfigTestSupport.minimalYAML
        let config = ConfigTestSupport.config(yaml)
        #expect(config?.server == ServerConfig())
        #expect(config?.auth == [])
    }
}
