/// `routes:` — the doors. Names of upstreams and auth providers are checked afterwards in
/// `ConfigDecoder+References.swift`, once every section has been read.
extension ConfigDecoder {
    /// A name a route refers to, where it was written.
    struct RouteReference {
        var name: String
        var path: String
        var mark: YAMLMark
    }

    /// A route as read, also when some of its keys were refused: the names it refers to are
    /// still checked, so one pass reports every problem.
    struct DecodedRoute {
        var route: RouteConfig
        var upstream: RouteReference?
        var authNames: [RouteReference]
        var rateLimits: [DecodedRateLimit] = []
        /// Where `cache:` was written, for the scope check against the route's auth.
        var cacheAt: (path: String, mark: YAMLMark)?
    }

    func routes(_ node: YAMLNode, _ path: String) -> [DecodedRoute]? {
        guard let items = list(node, path) else { return nil }
        if items.isEmpty {
            report(path, "define at least one route", at: node.mark)
        }
        var routes: [DecodedRoute] = []
        var firstIndexByPath: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let itemPath = path.appendingIndex(index)
            guard let decoded = route(item, itemPath) else { continue }
            if let routePath = decoded.path {
                if let first = firstIndexByPath[routePath.name] {
                    report(routePath.path, "same path as \(path.appendingIndex(first))", at: routePath.mark)
                } else {
                    firstIndexByPath[routePath.name] = index
                }
            }
            routes.append(decoded.route)
        }
        return routes
    }

    // MARK: - One route

    /// The route and, when it was readable, its path with position (for the duplicate check).
    private func route(_ node: YAMLNode, _ path: String) -> (route: DecodedRoute, path: RouteReference?)? {
        guard var map = mapping(node, path) else { return nil }
        let pathEntry = map.take("path")
        let routePath = pathEntry.flatMap { self.routePath($0.value, path.appendingKey("path")) }
        if pathEntry == nil {
            report(path.appendingKey("path"), "required; e.g. /graphql or /content/*", at: map.mark)
        }
        let upstreamEntry = map.take("upstream")
        let upstreamPath = path.appendingKey("upstream")
        let upstream = upstreamEntry.flatMap { nonEmptyString($0.value, upstreamPath) }
        if upstreamEntry == nil {
            report(upstreamPath, "required; name one of the upstreams", at: map.mark)
        }
        let auth = map.required("auth", "required; write \"none\" for a public route", routeAuth)

        var route = RouteConfig(path: routePath ?? "/", upstream: upstream ?? "", auth: auth?.auth ?? .none)
        if let methods = map.value("methods", methods) { route.methods = methods }
        if let upstreamPath = map.value("upstream_path", self.upstreamPath) { route.upstreamPath = upstreamPath }
        if let persisted = map.value("persisted", persisted) { route.persisted = persisted }
        if let operations = map.value("operations", { self.list($0, $1, self.operationName) }) {
            route.operations = operations
        }
        if let timeout = map.value("timeout", positiveDuration) { route.timeout = timeout }
        if let headersEntry = map.take("headers") {
            routeHeaders(headersEntry.value, path.appendingKey("headers"), into: &route)
        }
        if let mapErrors = map.value("map_graphql_errors", bool) { route.mapGraphQLErrors = mapErrors }
        if let buffering = map.value("request_buffering", bool) { route.requestBuffering = buffering }
        if let bytes = map.value("max_body_bytes", { self.size($0, $1, minimum: 0) }) { route.maxBodyBytes = bytes }
        if let timeout = map.value("stream_idle_timeout", positiveDuration) { route.streamIdleTimeout = timeout }
        let websocketEntry = map.take("websocket")
        route.websocket = websocketEntry.flatMap { websocket($0.value, path.appendingKey("websocket")) }
        route.uploads = map.take("uploads").flatMap { uploads($0.value, path.appendingKey("uploads")) }
        checkRealtimeKeys(route, path, websocketAt: websocketEntry?.value.mark)
        let decodedLimits = map.value("rate_limit", rateLimits) ?? []
        route.rateLimits = decodedLimits.compactMap(\.limit)
        let cacheEntry = map.take("cache")
        if let cacheEntry { route.cache = routeCache(cacheEntry.value, path.appendingKey("cache")) }
        map.finish()

        var upstreamReference: RouteReference?
        if let upstream, let upstreamEntry {
            upstreamReference = RouteReference(name: upstream, path: upstreamPath, mark: upstreamEntry.value.mark)
        }
        var pathReference: RouteReference?
        if let routePath, let pathEntry {
            pathReference = RouteReference(name: routePath, path: path.appendingKey("path"), mark: pathEntry.value.mark)
        }
        var decoded = DecodedRoute(route: route, upstream: upstreamReference, authNames: auth?.names ?? [],
                                   rateLimits: decodedLimits)
        decoded.cacheAt = cacheEntry.map { (path.appendingKey("cache"), $0.value.mark) }
        return (decoded, pathReference)
    }

    private func routePath(_ node: YAMLNode, _ path: String) -> String? {
        guard let text = string(node, path) else { return nil }
        if let problem = RoutePathSyntax.problem(in: text) {
            report(path, problem.message, at: node.mark)
            return nil
        }
        return text
    }

    private func upstreamPath(_ node: YAMLNode, _ path: String) -> String? {
        guard let text = string(node, path) else { return nil }
        if let problem = HTTPSyntax.upstreamPathProblem(text) {
            report(path, problem.message, at: node.mark)
            return nil
        }
        return text
    }

    // MARK: - auth

    /// `none`, one provider name, or a list of names (any one suffices).
    private func routeAuth(_ node: YAMLNode, _ path: String) -> (auth: RouteConfig.Auth, names: [RouteReference])? {
        if case .scalar = node.content, !node.isNull {
            guard let name = nonEmptyString(node, path) else { return nil }
            if name == "none" { return (.none, []) }
            return (.anyOf([name]), [RouteReference(name: name, path: path, mark: node.mark)])
        }
        guard let items = list(node, path) else { return nil }
        guard !items.isEmpty else {
            report(path, "name at least one auth provider, or write \"none\" for a public route", at: node.mark)
            return nil
        }
        var names: [RouteReference] = []
        for (index, item) in items.enumerated() {
            let itemPath = path.appendingIndex(index)
            guard let name = nonEmptyString(item, itemPath) else { continue }
            if name == "none" {
                report(itemPath, "\"none\" cannot be combined with providers; a route is either public or not",
                       at: item.mark)
            } else if names.contains(where: { $0.name == name }) {
                report(itemPath, "\"\(name)\" is listed twice", at: item.mark)
            } else {
                names.append(RouteReference(name: name, path: itemPath, mark: item.mark))
            }
        }
        // The names read are returned even when some item was refused, so they are still checked.
        return (.anyOf(names.map(\.name)), names)
    }

    // MARK: - Other keys

    private func methods(_ node: YAMLNode, _ path: String) -> [String]? {
        guard let methods = list(node, path, { item, itemPath -> String? in
            guard let method = self.string(item, itemPath) else { return nil }
            guard HTTPSyntax.isToken(method) else {
                self.report(itemPath, "\"\(method)\" is not an HTTP method", at: item.mark)
                return nil
            }
            guard method == method.uppercased() else {
                self.report(itemPath, "methods are case-sensitive; write \"\(method.uppercased())\"", at: item.mark)
                return nil
            }
            return method
        }) else { return nil }
        guard !methods.isEmpty else {
            report(path, "list at least one method", at: node.mark)
            return nil
        }
        if let repeated = methods.enumerated().first(where: { methods[..<$0.offset].contains($0.element) }) {
            report(path.appendingIndex(repeated.offset), "\"\(repeated.element)\" is listed twice", at: node.mark)
            return nil
        }
        return methods
    }

    private func persisted(_ node: YAMLNode, _ path: String) -> RouteConfig.Persisted? {
        guard let text = string(node, path) else { return nil }
        guard let persisted = RouteConfig.Persisted(rawValue: text) else {
            report(path, "unknown value \"\(text)\" (expected off, allow or only)", at: node.mark)
            return nil
        }
        return persisted
    }

    /// A GraphQL operation name: `[_A-Za-z][_0-9A-Za-z]*`.
    private func operationName(_ node: YAMLNode, _ path: String) -> String? {
        guard let name = string(node, path) else { return nil }
        let isLetter = { (byte: UInt8) in
            byte == UInt8(ascii: "_") || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
        }
        guard let first = name.utf8.first, isLetter(first),
              name.utf8.allSatisfy({ isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }) else {
            report(path, "\"\(name)\" is not a GraphQL operation name", at: node.mark)
            return nil
        }
        return name
    }

    /// `headers: { set: {…}, remove: […] }`.
    private func routeHeaders(_ node: YAMLNode, _ path: String, into route: inout RouteConfig) {
        guard var map = mapping(node, path) else { return }
        if let settings = map.value("set", headerSettings) { route.headersSet = settings }
        if let names = map.value("remove", headerNames) { route.headersRemove = names }
        map.finish()
    }
}
