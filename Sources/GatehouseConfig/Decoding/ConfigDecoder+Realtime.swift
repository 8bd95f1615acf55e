/// `routes[i].websocket:`, `routes[i].uploads:` and `routes[i].stream_idle_timeout`.
extension ConfigDecoder {
    /// graphql-transport-ws and graphql-ws: the subprotocols a GraphQL WebSocket server speaks.
    static let knownSubprotocols = ["graphql-transport-ws", "graphql-ws"]

    func websocket(_ node: YAMLNode, _ path: String) -> WebSocketConfig? {
        guard var map = mapping(node, path) else { return nil }
        var config = WebSocketConfig()
        if let protocols = map.value("subprotocols", subprotocols) { config.subprotocols = protocols }
        if let sources = map.value("token_from", webSocketTokenSources) { config.tokenFrom = sources }
        if let timeout = map.value("init_timeout", positiveDuration) { config.initTimeout = timeout }
        if let bytes = map.value("max_message_size", { self.size($0, $1, minimum: 1) }) { config.maxMessageSize = bytes }
        if let timeout = map.value("idle_timeout", positiveDuration) { config.idleTimeout = timeout }
        if let lifetime = map.value("max_lifetime", positiveDuration) { config.maxLifetime = lifetime }
        if let close = map.value("close_on_expiry", bool) { config.closeOnExpiry = close }
        map.finish()
        return config
    }

    func uploads(_ node: YAMLNode, _ path: String) -> UploadsConfig? {
        guard var map = mapping(node, path) else { return nil }
        var config = UploadsConfig()
        if let files = map.value("max_files", { self.integer($0, $1, in: 1...Self.maxUploadFiles) }) { config.maxFiles = files }
        if let bytes = map.value("max_file_size", { self.size($0, $1, minimum: 1) }) { config.maxFileSize = bytes }
        map.finish()
        return config
    }

    /// Rules across a route's keys: an upgrade is a GET. (Uploads stream whatever the route's
    /// `request_buffering` says, so that key is free on an upload route.)
    func checkRealtimeKeys(_ route: RouteConfig, _ path: String, websocketAt: YAMLMark?) {
        if route.websocket != nil, let mark = websocketAt, !route.methods.contains("GET") {
            report(path.appendingKey("websocket"), "a WebSocket handshake is a GET; add GET to methods", at: mark)
        }
        if route.websocket?.connectionInitField != nil, case .none = route.auth, let mark = websocketAt {
            report(path.appendingKey("websocket").appendingKey("token_from"),
                   "connection_init needs the route's auth to verify the token; the route has auth: none", at: mark)
        }
    }

    /// A bound on `max_files` so a typo cannot make one request's map unbounded.
    static let maxUploadFiles = 10_000

    // MARK: - subprotocols

    private func subprotocols(_ node: YAMLNode, _ path: String) -> [String]? {
        guard let names = list(node, path, { item, itemPath -> String? in
            guard let name = self.nonEmptyString(item, itemPath) else { return nil }
            guard HTTPSyntax.isToken(name) else {
                self.report(itemPath, "\"\(name)\" is not a subprotocol token", at: item.mark)
                return nil
            }
            return name
        }) else { return nil }
        guard !names.isEmpty else {
            report(path, "list at least one subprotocol, e.g. \(Self.knownSubprotocols.joined(separator: ", "))", at: node.mark)
            return nil
        }
        if let repeated = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) }) {
            report(path.appendingIndex(repeated.offset), "\"\(repeated.element)\" is listed twice", at: node.mark)
            return nil
        }
        return names
    }

    // MARK: - token_from

    private func webSocketTokenSources(_ node: YAMLNode, _ path: String) -> [WebSocketConfig.TokenSource]? {
        guard let sources = list(node, path, tokenSource) else { return nil }
        guard !sources.isEmpty else {
            report(path, "list at least one of header, query:NAME, connection_init:FIELD", at: node.mark)
            return nil
        }
        let kinds = sources.map(Self.kind)
        if let repeated = kinds.enumerated().first(where: { kinds[..<$0.offset].contains($0.element) }) {
            report(path.appendingIndex(repeated.offset), "\(repeated.element) is listed twice", at: node.mark)
            return nil
        }
        return sources
    }

    private static func kind(_ source: WebSocketConfig.TokenSource) -> String {
        switch source {
        case .header: return "header"
        case .query: return "query"
        case .connectionInit: return "connection_init"
        }
    }

    private func tokenSource(_ node: YAMLNode, _ path: String) -> WebSocketConfig.TokenSource? {
        guard let text = nonEmptyString(node, path) else { return nil }
        if text == "header" { return .header }
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else {
            report(path, "unknown token source \"\(text)\" (expected header, query:NAME or connection_init:FIELD)", at: node.mark)
            return nil
        }
        switch parts[0] {
        case "query":
            guard HTTPSyntax.isToken(parts[1]) else {
                report(path, "\"\(parts[1])\" is not a query parameter name", at: node.mark)
                return nil
            }
            return .query(parts[1])
        case "connection_init":
            return .connectionInit(parts[1])
        default:
            report(path, "unknown token source \"\(text)\" (expected header, query:NAME or connection_init:FIELD)", at: node.mark)
            return nil
        }
    }
}
