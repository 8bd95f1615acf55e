import Testing
@testable import GatehouseConfig

/// `websocket:`, `uploads:`, `stream_idle_timeout` and a route's `max_body_bytes`: what loads, and
/// every refusal at its key path.
@Suite struct RealtimeConfigTests {
    @Test func websocketAndUploadKeysLoad() throws {
        let yaml = ConfigTestSupport.withRoutes("""
            [{path: /ws, upstream: app, auth: user-keys, stream_idle_timeout: 30s,
              websocket: {subprotocols: [graphql-ws], token_from: [header, "query:access_token", "connection_init:Authorization"],
                          init_timeout: 3s, max_message_size: 64KiB, idle_timeout: 1m, max_lifetime: 1h, close_on_expiry: false}},
             {path: /upload, upstream: app, auth: none, request_buffering: false, max_body_bytes: 200MiB,
              uploads: {max_files: 3, max_file_size: 5MiB}}]
            """)
        let config = try #require(ConfigTestSupport.config(yaml))
        let websocket = try #require(config.routes[0].websocket)
        #expect(websocket.subprotocols == ["graphql-ws"])
        #expect(websocket.tokenFrom == [.header, .query("access_token"), .connectionInit("Authorization")])
        #expect(websocket.queryParameter == "access_token")
        #expect(websocket.connectionInitField == "Authorization")
        #expect(websocket.initTimeout == .seconds(3))
        #expect(websocket.maxMessageSize == 64 * 1024)
        #expect(websocket.idleTimeout == .seconds(60))
        #expect(websocket.maxLifetime == .seconds(3600))
        #expect(!websocket.closeOnExpiry)
        #expect(config.routes[0].streamIdleTimeout == .seconds(30))
        #expect(config.routes[1].uploads == UploadsConfig(maxFiles: 3, maxFileSize: 5 * 1024 * 1024))
        #expect(config.routes[1].maxBodyBytes == 200 * 1024 * 1024)
    }

    /// Uploads stream whatever `request_buffering` says, so an upload route may leave it at true.
    @Test func uploadsLoadWithBufferingLeftOn() throws {
        let yaml = ConfigTestSupport.withRoutes("[{path: /u, upstream: app, auth: none, uploads: {}}]")
        let config = try #require(ConfigTestSupport.config(yaml))
        #expect(config.routes[0].requestBuffering)
        #expect(config.routes[0].uploads == UploadsConfig())
    }

    @Test func defaults() throws {
        let yaml = ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: user-keys, websocket: {}}]")
        let config = try #require(ConfigTestSupport.config(yaml))
        #expect(config.routes[0].websocket == WebSocketConfig())
        #expect(WebSocketConfig().subprotocols == ["graphql-transport-ws", "graphql-ws"])
        #expect(WebSocketConfig().tokenFrom == [.header])
        #expect(config.routes[0].uploads == nil)
        #expect(config.routes[0].maxBodyBytes == nil)
        #expect(config.routes[0].streamIdleTimeout == .seconds(300))
    }

    static let cases: [BadConfigCase] = [
        BadConfigCase("unknown websocket key", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: none, websocket: {subprotocol: [x]}}]"),
                      "routes[0].websocket.subprotocol: unknown key"),
        BadConfigCase("empty subprotocols", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: none, websocket: {subprotocols: []}}]"),
                      "routes[0].websocket.subprotocols: list at least one subprotocol, e.g. graphql-transport-ws, graphql-ws"),
        BadConfigCase("subprotocol with a space", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: none, websocket: {subprotocols: [\"a b\"]}}]"),
                      "routes[0].websocket.subprotocols[0]: \"a b\" is not a subprotocol token"),
        BadConfigCase("subprotocol twice", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: none, websocket: {subprotocols: [graphql-ws, graphql-ws]}}]"),
                      "routes[0].websocket.subprotocols[1]: \"graphql-ws\" is listed twice"),
        BadConfigCase("unknown token source", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: user-keys, websocket: {token_from: [cookie]}}]"),
                      "routes[0].websocket.token_from[0]: unknown token source \"cookie\" (expected header, query:NAME or connection_init:FIELD)"),
        BadConfigCase("query without a name", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: user-keys, websocket: {token_from: [\"query:\"]}}]"),
                      "routes[0].websocket.token_from[0]: unknown token source \"query:\" (expected header, query:NAME or connection_init:FIELD)"),
        BadConfigCase("two query sources", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: user-keys, websocket: {token_from: [\"query:a\", \"query:b\"]}}]"),
                      "routes[0].websocket.token_from[1]: query is listed twice"),
        BadConfigCase("empty token_from", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: user-keys, websocket: {token_from: []}}]"),
                      "routes[0].websocket.token_from: list at least one of header, query:NAME, connection_init:FIELD"),
        BadConfigCase("connection_init on a public route", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: none, websocket: {token_from: [\"connection_init:token\"]}}]"),
                      "routes[0].websocket.token_from: connection_init needs the route's auth to verify the token; the route has auth: none"),
        BadConfigCase("zero init_timeout", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: none, websocket: {init_timeout: 0}}]"),
                      "routes[0].websocket.init_timeout: must be greater than 0"),
        BadConfigCase("zero max_message_size", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: none, websocket: {max_message_size: 0}}]"),
                      "routes[0].websocket.max_message_size: must be at least 1 bytes"),
        BadConfigCase("quoted close_on_expiry", ConfigTestSupport.withRoutes("[{path: /ws, upstream: app, auth: none, websocket: {close_on_expiry: \"yes\"}}]"),
                      "routes[0].websocket.close_on_expiry: expected true or false, got the quoted string \"yes\""),
        BadConfigCase("websocket without GET", ConfigTestSupport.withRoutes("[{path: /ws, methods: [POST], upstream: app, auth: none, websocket: {}}]"),
                      "routes[0].websocket: a WebSocket handshake is a GET; add GET to methods"),
        BadConfigCase("zero max_files", ConfigTestSupport.withRoutes("[{path: /u, upstream: app, auth: none, request_buffering: false, uploads: {max_files: 0}}]"),
                      "routes[0].uploads.max_files: must be between 1 and 10000"),
        BadConfigCase("unknown uploads key", ConfigTestSupport.withRoutes("[{path: /u, upstream: app, auth: none, request_buffering: false, uploads: {max_size: 1}}]"),
                      "routes[0].uploads.max_size: unknown key"),
        BadConfigCase("zero stream_idle_timeout", ConfigTestSupport.withRoutes("[{path: /s, upstream: app, auth: none, stream_idle_timeout: 0}]"),
                      "routes[0].stream_idle_timeout: must be greater than 0"),
    ]

    @Test(arguments: cases)
    func refused(_ badCase: BadConfigCase) {
        #expect(ConfigTestSupport.issueLines(badCase.yaml, environment: badCase.environment) == badCase.expected)
    }
}
