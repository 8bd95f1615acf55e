/// Persisted operations, allow-lists and GET translation (README, "Persisted operations"). The
/// body is read whole first, only on routes whose policy needs to look into it. A WebSocket
/// handshake carries no operation (they travel inside the socket), so it is not inspected; an
/// upload's operations were checked by `UploadPreamblePhase`.
enum OperationPolicyPhase {
    static func run(_ exchange: Exchange) -> PhaseResult {
        guard let route = exchange.route, route.inspectsRequests, exchange.webSocket == nil, exchange.upload == nil else {
            return .next
        }
        guard exchange.requestSide.isComplete || exchange.takeBodyFromInputIfComplete() else { return .wait(.requestBody) }
        let head = exchange.head
        let method: OperationPolicy.RequestMethod
        switch head.methodKind {
        case .get: method = .get
        case .post: method = .post
        default: method = .other
        }
        let memo = method == .get && exchange.body.isNone && exchange.snapshot === exchange.worker.snapshot
            ? exchange.worker.preparedCalls : nil
        if let memo, let call = head.bytes.withUnsafeBytes({
            memo.lookup(route: route.index, target: UnsafeRawBufferPointer(rebasing: $0[head.target]))
        }) {
            exchange.rewrite = call.rewrite
            exchange.identifiedOperation = call.operation
            return .next
        }
        var remainder: String?
        if route.isPrefix { remainder = head.string(head.path.lowerBound + route.matchBytes.count..<head.path.upperBound) }
        let query = head.query.map { head.bytes[$0] }
        let decision = exchange.withBody { body in
            route.operationPolicy.decide(method: method, pathRemainder: remainder, query: query,
                                         body: body, registry: exchange.snapshot.registry)
        }
        switch decision {
        case .forwardUnchanged:
            return .next
        case .forwardBody(let newBody):
            exchange.rewrite = UpstreamRewrite(method: Array("POST".utf8), target: route.upstreamBase, body: newBody,
                                               contentTypeJSON: true)
        case .aemGet(let pathAndQuery):
            exchange.rewrite = UpstreamRewrite(method: Array("GET".utf8), target: pathAndQuery, body: nil, dropsBody: true)
        case .refuse(let error):
            return .respond(error)
        }
        if let memo, let rewrite = exchange.rewrite { remember(rewrite, in: memo, exchange, route) }
        return .next
    }

    /// Keeps a GET call's translation, with the operation the cache would identify from it.
    private static func remember(_ rewrite: UpstreamRewrite, in memo: PreparedCallMemo, _ exchange: Exchange,
                                 _ route: CompiledRoute) {
        let head = exchange.head
        var operation: IdentifiedOperation?
        if route.cache != nil || !route.invalidations.isEmpty,
           let identified = CacheableOperation.identify(rewrite: rewrite, method: .get, query: head.query.map { head.bytes[$0] },
                                                        body: nil, registry: exchange.snapshot.registry) {
            operation = IdentifiedOperation(operation: identified,
                                            keyPart: route.cache.map {
                                                CacheKeyBuilder.knownPart(routePart: $0.keyRoutePart, scope: $0.scope,
                                                                          varyNames: $0.varyNames, operation: identified)
                                            })
            exchange.identifiedOperation = operation
        }
        head.bytes.withUnsafeBytes {
            memo.store(route: route.index, target: UnsafeRawBufferPointer(rebasing: $0[head.target]),
                       PreparedCallMemo.Call(rewrite: rewrite, operation: operation))
        }
    }
}
