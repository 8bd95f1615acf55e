import GatehouseHTTP

/// The response cache (README, "Response cache"): decides whether the request is cacheable,
/// builds its key, applies the request's fetch policy and answers hits; a miss goes on to the
/// upstream with its response captured for storage (`Exchange+CacheStorage.swift`).
enum CachePhase {
    static let nothingCachedMessage = "Nothing is cached for this request."

    static func run(_ exchange: Exchange) -> PhaseResult {
        // An upload (a mutation, its body streamed) is neither cached nor read for `invalidate`.
        guard let route = exchange.route, route.cache != nil || !route.invalidations.isEmpty, exchange.upload == nil else {
            return .next
        }
        if exchange.rewrite?.body == nil, exchange.rewrite?.target == nil, exchange.head.methodKind == .post,
           !exchange.requestSide.isComplete {
            guard exchange.takeBodyFromInputIfComplete() else { return .wait(.requestBody) }
        }
        // Taken, not copied: nothing after this phase asks for it.
        let identified = exchange.identifiedOperation.take()
        let operation = identified?.operation ?? identify(exchange)
        guard let operation, operation.isQuery, let cache = route.cache else {
            if let operation, operation.isMutation, let dropped = route.invalidations[operation.name] {
                exchange.cacheWork = CacheWork(route: nil, key: .placeholder, operation: operation.name,
                                               role: .invalidates(dropped))
            }
            return bypass(exchange, route.cache)
        }
        // Read in place: a local copy of the head would retain each of its arrays.
        let policy = CacheFetchPolicy.from(exchange.head.combinedValue(named: "cache-control"))
        // A public scope is everyone's: the caller's identity is not even read.
        guard policy != .bypass,
              let scope = cache.scope == .public
                ? .everyone
                : CacheKeyBuilder.scope(cache.scope, identity: exchange.rateLimitProgress.identity, head: exchange.head)
        else {
            return bypass(exchange, cache)
        }
        // A memoized GET call was rewritten: its upstream target is the gateway's, fixed per call.
        let key = switch identified?.keyPart {
        case .whole(let key): key  // a public scope without `vary`: nothing of this request goes in
        case .start(let start):
            CacheKeyBuilder.key(start: start, forwardedTarget: [],
                                varyValues: CacheKeyBuilder.varyValues(cache.varyNames, head: exchange.head), scope: scope)
        case nil:
            CacheKeyBuilder.key(routePart: cache.keyRoutePart, operation: operation,
                                forwardedTarget: forwardedTarget(exchange, route),
                                varyValues: CacheKeyBuilder.varyValues(cache.varyNames, head: exchange.head), scope: scope)
        }
        var lookup = CacheLookupState(cache: cache, key: key, operation: operation.name, policy: policy)
        switch cache.store.get(key, now: exchange.loop.now, waiter: exchange) {
        case .answered(let entry):
            // Answered at once (the memory store): the lookup is decided here, never kept.
            return exchange.decideCache(with: entry, lookup)
        case .pending:
            let answer = PendingAnswer()
            lookup.pending = answer
            exchange.cacheLookup = lookup
            answer.onCancel = { [unowned(unsafe) exchange] in exchange.cacheLookup = nil }
            return .wait(.answer(answer))
        case .unavailable:
            return exchange.bypassUnavailableStore(lookup)
        }
    }

    /// What of the client's target the upstream gets as sent; nothing when the gateway wrote the
    /// upstream target itself (a held operation, a GET call, an AEM call by name).
    private static func forwardedTarget(_ exchange: Exchange, _ route: CompiledRoute) -> ArraySlice<UInt8> {
        guard exchange.rewrite?.target == nil else { return [] }
        let head = exchange.head
        let remainderStart = route.isPrefix ? head.path.lowerBound + route.matchBytes.count : head.path.upperBound
        return CacheKeyBuilder.forwardedTarget(of: head, remainderStart: remainderStart)
    }

    /// The operation from the request (or the policy's rewrite of it).
    private static func identify(_ exchange: Exchange) -> CacheableOperation? {
        let head = exchange.head
        let method: OperationPolicy.RequestMethod = switch head.methodKind {
        case .get: .get
        case .post: .post
        default: .other
        }
        let query = head.query.map { head.bytes[$0] }
        return exchange.withBody { body in
            CacheableOperation.identify(rewrite: exchange.rewrite, method: method, query: query, body: body,
                                        registry: exchange.snapshot.registry)
        }
    }

    private static func bypass(_ exchange: Exchange, _ cache: CompiledRouteCache?) -> PhaseResult {
        guard let cache else { return .next }
        cache.count(.bypass)
        exchange.cacheStatusLine = CacheStatusLine(forward: .bypass)
        return .next
    }
}

/// A lookup between the store's answer and the decision.
struct CacheLookupState {
    let cache: CompiledRouteCache
    let key: CacheKey
    let operation: String
    let policy: CacheFetchPolicy
    var pending: PendingAnswer?
}
