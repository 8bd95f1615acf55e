/// `routes[i].rate_limit:` — a list of limits. What depends on other sections (the route's auth
/// providers, the `stores:` names) is checked in `ConfigDecoder+Document.swift` once all are read.
extension ConfigDecoder {
    /// A limit as read, with where its key and store were written for the later checks. Its key
    /// and store are checked even when another of its fields was refused (`limit` is then nil).
    struct DecodedRateLimit {
        var limit: RateLimitConfig?
        /// `routes[i].rate_limit[j]` and where the limit was written.
        var path: String
        var mark: YAMLMark
        var key: (key: RateLimitConfig.Key, path: String, mark: YAMLMark)?
        var store: RouteReference?
    }

    /// The largest `burst`, for the same reason as `RateSyntax.maximumCount`.
    static let maximumBurst = RateSyntax.maximumCount

    /// The limits that could be read (every problem is reported; the config is refused if any).
    func rateLimits(_ node: YAMLNode, _ path: String) -> [DecodedRateLimit]? {
        guard let items = list(node, path) else { return nil }
        var limits: [DecodedRateLimit] = []
        var firstIndexByName: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let itemPath = path.appendingIndex(index)
            guard let decoded = rateLimit(item, itemPath) else { continue }
            limits.append(decoded)
            guard let name = decoded.limit?.name else { continue }
            if let first = firstIndexByName[name] {
                report(itemPath.appendingKey("name"),
                       "policy name \"\(name)\" is already used by \(path.appendingIndex(first)); "
                           + "give each limit of a route its own name", at: item.mark)
            } else {
                firstIndexByName[name] = index
            }
        }
        // Limits read are returned even when another was refused, so they are still checked.
        return limits
    }

    // MARK: - One limit

    private func rateLimit(_ node: YAMLNode, _ path: String) -> DecodedRateLimit? {
        guard var map = mapping(node, path) else { return nil }
        let nameEntry = map.take("name")
        let name = nameEntry.flatMap { entry -> String? in
            guard let text = nonEmptyString(entry.value, path.appendingKey("name")),
                  checkName(text, path.appendingKey("name"), at: entry.value.mark) else { return nil }
            return text
        }
        let keyEntry = map.take("key")
        let key = keyEntry.flatMap { rateLimitKey($0.value, path.appendingKey("key")) }
        if keyEntry == nil {
            report(path.appendingKey("key"), "required; ip, subject, api_key, header:NAME or route", at: map.mark)
        }
        let rate = map.required("rate", "required; e.g. 10/s, 100/m or 5000/h") {
            self.parsed($0, $1, expected: "a rate such as 10/s", RateSyntax.parse)
        }
        let burstEntry = map.take("burst")
        let burst = burstEntry.flatMap { integer($0.value, path.appendingKey("burst"), in: 1...Self.maximumBurst) }
        let storeEntry = map.take("store")
        let store = storeEntry.flatMap { nonEmptyString($0.value, path.appendingKey("store")) }
        map.finish()

        var decoded = DecodedRateLimit(path: path, mark: map.mark)
        if let key, let keyEntry { decoded.key = (key, path.appendingKey("key"), keyEntry.value.mark) }
        if let store, let storeEntry {
            decoded.store = RouteReference(name: store, path: path.appendingKey("store"), mark: storeEntry.value.mark)
        }
        if let key, let rate, nameEntry == nil || name != nil, burstEntry == nil || burst != nil,
           storeEntry == nil || store != nil {
            decoded.limit = RateLimitConfig(name: name, key: key, rate: rate, burst: burst,
                                            store: store ?? RateLimitConfig.memoryStore)
        }
        return decoded
    }

    /// `ip | subject | api_key | header:NAME | route`.
    private func rateLimitKey(_ node: YAMLNode, _ path: String) -> RateLimitConfig.Key? {
        guard let text = string(node, path) else { return nil }
        switch text {
        case "ip": return .ip
        case "subject": return .subject
        case "api_key": return .apiKey
        case "route": return .route
        default:
            let headerPrefix = "header:"
            if text.hasPrefix(headerPrefix) {
                let name = String(text.dropFirst(headerPrefix.count))
                guard HTTPSyntax.isToken(name) else {
                    report(path, "\"\(name)\" is not a valid header name", at: node.mark)
                    return nil
                }
                return .header(name)
            }
            report(path, "\"\(text)\" is not a limit key (expected ip, subject, api_key, header:NAME or route)", at: node.mark)
            return nil
        }
    }

    // MARK: - Checks against the rest of the config

    /// Limits whose key the route's authentication can never provide, and unknown stores.
    /// `providerKinds` holds every provider that was read correctly (others are already reported);
    /// `stores` every name of the `stores:` section.
    func checkRateLimits(_ limits: [DecodedRateLimit], auth: RouteConfig.Auth,
                         providerKinds: [String: AuthProviderConfig.Kind], stores: Set<String>) {
        var firstStore: (name: String, path: String)?
        for decoded in limits {
            if let store = decoded.store { checkStoreReference(store, declared: stores) }
            // One store per route, so a limit stage is one call to it (one Redis round trip).
            let storeName = decoded.store?.name ?? RateLimitConfig.memoryStore
            let isKnown = storeName == RateLimitConfig.memoryStore || stores.contains(storeName)
            if isKnown, let firstStore, firstStore.name != storeName {
                report(decoded.path.appendingKey("store"),
                       "every limit of a route uses the same store; \(firstStore.path) uses \"\(firstStore.name)\"",
                       at: decoded.store?.mark ?? decoded.mark)
            } else if isKnown && firstStore == nil {
                firstStore = (storeName, decoded.path)
            }
            if let key = decoded.key, let problem = keyProblem(key.key, auth: auth, providerKinds: providerKinds) {
                report(key.path, problem, at: key.mark)
            }
        }
    }

    /// Why `key` can never be known on a route with `auth`, or nil.
    ///
    /// `subject` on a route whose providers are all API keys is refused too: an API key has no
    /// subject of its own (every key of a provider would share one allowance), so the limit
    /// would not do what its name says; `api_key` says it.
    private func keyProblem(_ key: RateLimitConfig.Key, auth: RouteConfig.Auth,
                            providerKinds: [String: AuthProviderConfig.Kind]) -> String? {
        guard key.needsAuthentication else { return nil }
        guard case .anyOf(let names) = auth else {
            return "\"\(key)\" needs an authenticated route; this route has auth: none"
        }
        let kinds = names.compactMap { providerKinds[$0] }
        // A provider that was refused is reported already; judge only a fully known list.
        guard kinds.count == names.count else { return nil }
        let isAPIKey = { (kind: AuthProviderConfig.Kind) -> Bool in
            if case .apiKey = kind { return true }
            return false
        }
        switch key {
        case .apiKey where !kinds.contains(where: isAPIKey):
            return "\"api_key\" needs an api_key provider in the route's auth; none of \(names.joined(separator: ", ")) is one"
        case .subject where kinds.allSatisfy(isAPIKey):
            return "\"subject\" needs a jwt provider in the route's auth; API keys have no subject (use key: api_key)"
        default:
            return nil
        }
    }
}
