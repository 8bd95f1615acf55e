/// `server:` — the listener, its limits and timeouts, TLS and compression.
extension ConfigDecoder {
    func server(_ node: YAMLNode, _ path: String) -> ServerConfig? {
        guard var map = mapping(node, path) else { return nil }
        var server = ServerConfig()

        if let listen = map.value("listen", hostPort) { server.listen = listen }
        if let workers = map.value("workers", { self.integer($0, $1, in: 0...4096) }) { server.workers = workers }
        if let count = map.value("max_connections", { self.integer($0, $1, in: 1...Int.max) }) {
            server.maxConnections = count
        }
        if let timeout = map.value("header_timeout", positiveDuration) { server.headerTimeout = timeout }
        if let timeout = map.value("body_timeout", positiveDuration) { server.bodyTimeout = timeout }
        if let timeout = map.value("idle_timeout", positiveDuration) { server.idleTimeout = timeout }
        if let bytes = map.value("max_request_line", { self.size($0, $1, minimum: 1) }) { server.maxRequestLine = bytes }
        if let bytes = map.value("max_header_bytes", { self.size($0, $1, minimum: 1) }) { server.maxHeaderBytes = bytes }
        if let count = map.value("max_headers", { self.integer($0, $1, in: 1...Int.max) }) { server.maxHeaders = count }
        if let bytes = map.value("max_body_bytes", { self.size($0, $1, minimum: 0) }) { server.maxBodyBytes = bytes }
        if let timeout = map.value("drain_timeout", anyDuration) { server.drainTimeout = timeout }
        if let bytes = map.value("request_buffer", { self.size($0, $1, minimum: 0) }) { server.requestBuffer = bytes }
        if let directory = map.value("temp_dir", nonEmptyString) { server.tempDirectory = directory }
        if let rate = map.value("min_body_rate", { self.size($0, $1, minimum: 0) }) { server.minBodyRate = rate }
        if let proxies = map.value("trusted_proxies", { self.list($0, $1, self.cidr) }) { server.trustedProxies = proxies }
        if let admin = map.take("admin_listen") {
            server.adminListen = adminListen(admin.value, path.appendingKey("admin_listen"), default: server.adminListen)
        }
        if let target = map.value("access_log", accessLog) { server.accessLog = target }
        if let tls = map.value("tls", serverTLS) { server.tls = tls }
        if let compression = map.value("compression", compression) { server.compression = compression }

        map.finish()
        return server
    }

    // MARK: - Keys with their own forms

    /// `host:port`, or `""` to disable the admin listener.
    private func adminListen(_ node: YAMLNode, _ path: String, default: HostPort?) -> HostPort? {
        if case .scalar(let written) = node.content, written.kind == .string, written.text.isEmpty {
            return nil
        }
        guard let text = string(node, path) else { return `default` }
        if text.isEmpty { return nil }
        switch HostPortSyntax.parse(text) {
        case .success(let hostPort): return hostPort
        case .failure(let problem):
            report(path, problem.message, at: node.mark)
            return `default`
        }
    }

    /// `stdout`, `off`, or a file path.
    private func accessLog(_ node: YAMLNode, _ path: String) -> AccessLogTarget? {
        guard let text = nonEmptyString(node, path) else { return nil }
        switch text {
        case "stdout": return .stdout
        case "off": return .off
        default: return .file(text)
        }
    }
}
