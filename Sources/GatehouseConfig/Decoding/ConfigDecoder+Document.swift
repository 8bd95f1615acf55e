/// The whole document: the top-level sections, then the names routes refer to.
extension ConfigDecoder {
    /// The configuration, or nil when anything was reported.
    func document(_ root: YAMLNode?, sourcePath: String?) -> GatewayConfig? {
        let start = YAMLMark(line: 1, column: 1)
        let node = root ?? YAMLNode(.mapping([]), mark: start)
        guard case .mapping = node.content, var map = mapping(node, "") else {
            report("", "the configuration must be a mapping with server, upstreams, auth, operations, stores and routes",
                   at: node.mark)
            return nil
        }
        var config = GatewayConfig(sourcePath: sourcePath)

        if let server = map.value("server", server) { config.server = server }
        let upstreams = map.required("upstreams", "required; define at least one upstream") {
            self.upstreams($0, $1)
        }
        config.upstreams = upstreams?.upstreams ?? []
        let auth = map.value("auth") { self.authProviders($0, $1) }
        config.auth = auth?.providers ?? []
        if let operations = map.value("operations", operations) { config.operations = operations }
        let stores = map.value("stores") { self.stores($0, $1) }
        config.stores = stores?.stores ?? []
        let routes = map.required("routes", "required; define at least one route") { self.routes($0, $1) }
        if let cache = map.value("cache", { self.cacheSettings($0, $1, declared: stores?.names ?? []) }) { config.cache = cache }
        map.finish()

        if let routes {
            config.routes = routes.map(\.route)
            checkReferences(routes, upstreams: upstreams?.names, providers: auth?.names ?? [])
            let providerKinds = Dictionary((auth?.providers ?? []).map { ($0.name, $0.kind) }) { first, _ in first }
            for decoded in routes {
                checkRateLimits(decoded.rateLimits, auth: decoded.route.auth, providerKinds: providerKinds,
                                stores: stores?.names ?? [])
                checkCacheScope(decoded)
            }
        }
        return issues.isEmpty ? config : nil
    }

    // MARK: - Sections

    private func operations(_ node: YAMLNode, _ path: String) -> OperationsConfig? {
        guard var map = mapping(node, path) else { return nil }
        let directory = map.required("dir", "required; the directory holding *.graphql files", readableDirectory)
        map.finish()
        return directory.map(OperationsConfig.init(dir:))
    }

    // MARK: - References

    /// Every route's upstream and auth providers must be defined. Without an `upstreams` section
    /// (already reported) the upstream names are not checked.
    private func checkReferences(_ routes: [DecodedRoute], upstreams: Set<String>?, providers: Set<String>) {
        for decoded in routes {
            if let upstreams, let upstream = decoded.upstream, !upstreams.contains(upstream.name) {
                report(upstream.path, "unknown upstream \"\(upstream.name)\"", at: upstream.mark)
            }
            for name in decoded.authNames where !providers.contains(name.name) {
                report(name.path, "unknown auth provider \"\(name.name)\"", at: name.mark)
            }
        }
    }
}
