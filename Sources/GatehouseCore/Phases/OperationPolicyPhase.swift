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
        return .next
    }
}
