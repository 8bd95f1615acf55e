/// `upstreams:` — the backends, by name.
extension ConfigDecoder {
    /// Upstreams in file order, plus every declared name (also those refused for another
    /// reason, so routes naming them do not get a second, misleading "unknown upstream").
    func upstreams(_ node: YAMLNode, _ path: String) -> (upstreams: [UpstreamConfig], names: Set<String>) {
        guard var map = mapping(node, path) else { return ([], []) }
        let entries = map.takeAll()
        if entries.isEmpty {
            report(path, "define at least one upstream", at: node.mark)
        }
        var upstreams: [UpstreamConfig] = []
        var names: Set<String> = []
        for entry in entries {
            names.insert(entry.key)
            let entryPath = path.appendingKey(entry.key)
            let nameIsValid = checkName(entry.key, entryPath, at: entry.keyMark)
            if let upstream = upstream(named: entry.key, entry.value, entryPath), nameIsValid {
                upstreams.append(upstream)
            }
        }
        return (upstreams, names)
    }

    // MARK: - One upstream

    private func upstream(named name: String, _ node: YAMLNode, _ path: String) -> UpstreamConfig? {
        guard var map = mapping(node, path) else { return nil }
        let url = map.required("url", "required; e.g. http://127.0.0.1:4000/graphql", upstreamURL)
        var upstream = UpstreamConfig(name: name, url: url ?? UpstreamURL(scheme: .http, host: "", port: 80, path: "/"))
        let isValid = url != nil
        var kindIsKnown = true

        if let kindEntry = map.take("kind") {
            let kindPath = path.appendingKey("kind")
            if let text = string(kindEntry.value, kindPath) {
                if let kind = UpstreamConfig.Kind(rawValue: text) {
                    upstream.kind = kind
                } else {
                    report(kindPath, "unknown kind \"\(text)\" (expected graphql or aem)", at: kindEntry.value.mark)
                    kindIsKnown = false
                }
            } else {
                kindIsKnown = false
            }
        }
        if let timeout = map.value("connect_timeout", positiveDuration) { upstream.connectTimeout = timeout }
        if let timeout = map.value("timeout", positiveDuration) { upstream.timeout = timeout }
        if let count = map.value("max_connections", { self.integer($0, $1, in: 1...Int.max) }) {
            upstream.maxConnections = count
        }
        if let count = map.value("max_idle", { self.integer($0, $1, in: 0...Int.max) }) { upstream.maxIdle = count }
        if let headers = map.value("headers", headerSettings) { upstream.headers = headers }
        resilience(&map, path, into: &upstream)
        if let tlsEntry = map.take("tls") {
            let tlsPath = path.appendingKey("tls")
            upstream.tls = tls(tlsEntry.value, tlsPath)
            if url?.scheme == .http {
                report(tlsPath, "only for https upstreams; the url is http://", at: tlsEntry.keyMark)
            }
        }
        if let configEntry = map.take("aem_config") {
            let configPath = path.appendingKey("aem_config")
            if upstream.kind == .aem {
                upstream.aemConfig = aemConfigName(configEntry.value, configPath)
            } else if kindIsKnown {
                report(configPath, "only for kind: aem", at: configEntry.keyMark)
            }
        } else if upstream.kind == .aem {
            report(path.appendingKey("aem_config"), "required for kind: aem", at: map.mark)
        }

        map.finish()
        return isValid && kindIsKnown ? upstream : nil
    }

    /// The AEM configuration name: one path segment of `/graphql/execute.json/<name>/…`.
    private func aemConfigName(_ node: YAMLNode, _ path: String) -> String? {
        guard let name = nonEmptyString(node, path) else { return nil }
        guard name != ".", name != "..", name.utf8.allSatisfy({
            $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "%") && HTTPSyntax.isPathCharacter($0)
        }) else {
            report(path, "must be one path segment such as wknd-shared", at: node.mark)
            return nil
        }
        return name
    }

    // MARK: - TLS

    private func tls(_ node: YAMLNode, _ path: String) -> UpstreamTLSConfig? {
        guard var map = mapping(node, path) else { return nil }
        var tls = UpstreamTLSConfig()
        if let file = map.value("ca_file", readableFile) { tls.caFile = file }
        if let verify = map.value("verify", bool) { tls.verify = verify }
        if let entry = map.take("server_name") {
            let namePath = path.appendingKey("server_name")
            if let name = nonEmptyString(entry.value, namePath) {
                if let problem = TLSServerNameSyntax.problem(in: name) {
                    report(namePath, problem.message, at: entry.value.mark)
                } else {
                    tls.serverName = name
                }
            }
        }
        let hasCertificate = map.has("cert_file")
        let hasKey = map.has("key_file")
        if let file = map.value("cert_file", readableFile) { tls.certFile = file }
        if let file = map.value("key_file", readableFile) { tls.keyFile = file }
        if hasCertificate, !hasKey {
            report(path.appendingKey("key_file"), "required when cert_file is set", at: map.mark)
        }
        if hasKey, !hasCertificate {
            report(path.appendingKey("cert_file"), "required when key_file is set", at: map.mark)
        }
        map.finish()
        return tls
    }
}
