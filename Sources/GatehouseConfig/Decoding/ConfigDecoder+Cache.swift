/// `routes[i].cache:` and the top-level `cache:` (README, "Response cache").
extension ConfigDecoder {
    /// The smallest `max_entry_size`: an entry must hold at least a small JSON answer.
    static let minimumEntrySize = 64
    /// The smallest `cache.max_bytes`: room for a few entries of the smallest size.
    static let minimumCacheBytes = 64 * 1024

    func routeCache(_ node: YAMLNode, _ path: String) -> RouteCacheConfig? {
        guard var map = mapping(node, path) else { return nil }
        let maxAge = map.required("max_age", "required; the fresh lifetime, e.g. 30s", positiveDuration)
        let revalidate = map.value("stale_while_revalidate", anyDuration)
        let staleIfError = map.value("stale_if_error", anyDuration)
        let scope = map.value("scope", cacheScope)
        let vary = map.value("vary") { self.list($0, $1, self.headerName) }
        let maxEntrySize = map.value("max_entry_size") { self.size($0, $1, minimum: Self.minimumEntrySize) }
        map.finish()
        guard let maxAge else { return nil }
        var cache = RouteCacheConfig(maxAge: maxAge)
        if let revalidate { cache.staleWhileRevalidate = revalidate }
        if let staleIfError { cache.staleIfError = staleIfError }
        cache.scope = scope
        if let vary { cache.vary = vary }
        if let maxEntrySize { cache.maxEntrySize = maxEntrySize }
        return cache
    }

    private func cacheScope(_ node: YAMLNode, _ path: String) -> RouteCacheConfig.Scope? {
        guard let text = string(node, path) else { return nil }
        guard let scope = RouteCacheConfig.Scope(rawValue: text) else {
            report(path, "\"\(text)\" is not a cache scope (expected public, subject or credential)", at: node.mark)
            return nil
        }
        return scope
    }

    private func headerName(_ node: YAMLNode, _ path: String) -> String? {
        guard let name = string(node, path) else { return nil }
        guard HTTPSyntax.isToken(name) else {
            report(path, "\"\(name)\" is not a valid header name", at: node.mark)
            return nil
        }
        return name
    }

    /// The top-level `cache:`; `store` is `memory` or a store of the `stores:` section (`declared`).
    func cacheSettings(_ node: YAMLNode, _ path: String, declared: Set<String>) -> CacheConfig? {
        guard var map = mapping(node, path) else { return nil }
        var cache = CacheConfig()
        if let maxBytes = map.value("max_bytes", { self.size($0, $1, minimum: Self.minimumCacheBytes) }) {
            cache.maxBytes = maxBytes
        }
        if let storeEntry = map.take("store"), let store = nonEmptyString(storeEntry.value, path.appendingKey("store")) {
            cache.store = store
            checkStoreReference(RouteReference(name: store, path: path.appendingKey("store"), mark: storeEntry.value.mark),
                                declared: declared)
        }
        if let invalidate = map.value("invalidate", invalidations) { cache.invalidate = invalidate }
        map.finish()
        return cache
    }

    /// `invalidate: {mutation: [operations…]}`.
    private func invalidations(_ node: YAMLNode, _ path: String) -> [String: [String]]? {
        guard var map = mapping(node, path) else { return nil }
        var result: [String: [String]] = [:]
        for entry in map.takeAll() {
            let entryPath = path.appendingKey(entry.key)
            guard checkName(entry.key, entryPath, at: entry.keyMark) else { continue }
            guard let names = list(entry.value, entryPath, { item, itemPath -> String? in
                guard let name = self.nonEmptyString(item, itemPath), self.checkName(name, itemPath, at: item.mark) else {
                    return nil
                }
                return name
            }) else { continue }
            if names.isEmpty {
                report(entryPath, "list at least one operation whose entries this mutation drops", at: entry.value.mark)
            }
            result[entry.key] = names
        }
        map.finish()
        return result
    }

    /// A `subject` or `credential` cache on a public route could never tell callers apart.
    func checkCacheScope(_ decoded: DecodedRoute) {
        guard let cache = decoded.route.cache, let at = decoded.cacheAt, case .none = decoded.route.auth,
              let scope = cache.scope, scope != .public else { return }
        report(at.path.appendingKey("scope"),
               "\"\(scope.rawValue)\" needs an authenticated route; this route has auth: none (use scope: public)",
               at: at.mark)
    }
}
