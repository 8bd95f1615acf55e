import GatehouseHTTP
import GatehouseIO

/// The request phases, in their fixed order: framing limits, path and route, method, credentials,
/// then forwarding. Each phase either lets the request continue or answers it; none writes to a
/// socket itself.
extension Exchange {
    enum PhaseResult {
        case next
        case respond(GatewayError)
    }

    func run() {
        if case .respond(let error) = checkFraming() { return respond(error) }
        if case .respond(let error) = routeRequest() { return respond(error) }
        if case .respond(let error) = checkMethod() { return respond(error) }
        if case .respond(let error) = checkRateLimits(.beforeAuthentication) { return respond(error) }  // Limits/
        if case .respond(let error) = authenticate() { return respond(error) }
        if case .respond(let error) = checkRateLimits(.afterAuthentication) { return respond(error) }  // Limits/
        guard let route else { return }
        if route.inspectsRequests {
            if requestBodyDone { return applyOperationPolicy(body: nil) }
            return startCollectingBody(for: .policy)
        }
        switch requestBody {
        case .none: forward()
        case .length(let length) where length > Self.requestBufferLimit: forward()
        // Already all here: it leaves with the head in one write, no copy needed.
        case .length(let length) where connection.input.readableCount >= length: forward()
        default: startCollectingBody(for: .buffering)
        }
    }

    // MARK: - Framing

    private func checkFraming() -> PhaseResult {
        if head.unsupportedExpectation {
            keepAlive = false
            return .respond(GatewayError(.badRequest, "The Expect header has an unsupported value."))
        }
        switch head.framing {
        case .none, .contentLength(0):
            requestBody = .none
            requestBodyDone = true
        case .contentLength(let length):
            if length > 0 && (head.methodKind == .get || head.methodKind == .head) {
                keepAlive = false
                return .respond(GatewayError(.badRequest, "A GET or HEAD request cannot carry a body."))
            }
            if length > snapshot.maxBodyBytes {
                keepAlive = false
                return .respond(GatewayError(.payloadTooLarge, "The request body is larger than the gateway accepts."))
            }
            requestBody = length > 0 ? .length(remaining: length) : .none
        case .chunked:
            if head.methodKind == .get || head.methodKind == .head {
                keepAlive = false
                return .respond(GatewayError(.badRequest, "A GET or HEAD request cannot carry a body."))
            }
            requestBody = .chunked(ChunkedDecoder(), received: 0)
        }
        return .next
    }

    // MARK: - Routing

    private func routeRequest() -> PhaseResult {
        head.bytes.withUnsafeBytes { raw -> PhaseResult in
            let path = UnsafeRawBufferPointer(rebasing: raw[head.path])
            if let problem = PathValidator.problem(in: path) {
                keepAlive = false
                return .respond(GatewayError(.badRequest, problem))
            }
            guard let matched = snapshot.router.match(path) else {
                return .respond(GatewayError(.notFound, "No route matches this path."))
            }
            route = matched
            return .next
        }
    }

    private func checkMethod() -> PhaseResult {
        guard let route else { return .next }
        let allowed = head.bytes.withUnsafeBytes { raw in
            route.allows(method: UnsafeRawBufferPointer(rebasing: raw[head.method]))
        }
        if allowed { return .next }
        return .respond(GatewayError(.methodNotAllowed(allow: route.allow), "This method is not allowed on this route."))
    }

    // MARK: - Credentials

    private func authenticate() -> PhaseResult {
        guard let route else { return .next }
        switch route.auth.authenticate(head, now: worker.unixSeconds, caches: worker.tokenCache) {
        case .passed(let subject, let headerBlock, let identity):
            self.subject = subject
            rateLimitProgress.identity = identity  // for the limits after authentication
            claimHeaderBlock = headerBlock
            return .next
        case .refused(let error, let reason):
            if let reason { worker.routeMetrics(for: route).authFailures.add(reason.index) }
            return .respond(error)
        }
    }

    // MARK: - Operation policy

    /// Reads the body before an upstream is chosen: all of it for the policy (within
    /// `max_body_bytes`), or a small one for buffering.
    private func startCollectingBody(for purpose: CollectionPurpose) {
        collectionPurpose = purpose
        collectedBody = []
        wantsRequestBody = true
        if snapshot.bodyTimeoutNanos > 0 { bodyDeadline = loop.now + snapshot.bodyTimeoutNanos }
        exchangeDeadline = loop.now + (route?.timeoutNanos ?? snapshot.bodyTimeoutNanos)
        armDeadline()
        if head.expectContinue && !continueSent {
            continueSent = true
            connection.output.append("HTTP/1.1 100 Continue\r\n\r\n")
            connection.flushOutput()
        }
        pumpRequestBody()
    }

    /// Called when the collected body is complete.
    func bodyCollected() {
        let body = collectedBody ?? []
        switch collectionPurpose {
        case .policy:
            body.withUnsafeBytes { applyOperationPolicy(body: $0) }
        case .buffering:
            collectedBody = nil
            rewrite = UpstreamRewrite(body: body)
            forward()
        }
    }

    /// A chunked body outgrew the buffer: what is buffered goes first, the rest streams.
    func bufferOverflowed() {
        prebufferedBody = collectedBody
        collectedBody = nil
        forward()
    }

    private func applyOperationPolicy(body: UnsafeRawBufferPointer?) {
        guard let route else { return }
        let method: OperationPolicy.RequestMethod
        switch head.methodKind {
        case .get: method = .get
        case .post: method = .post
        default: method = .other
        }
        var remainder: String?
        if route.isPrefix { remainder = head.string(head.path.lowerBound + route.matchBytes.count..<head.path.upperBound) }
        let query = head.query.map { head.bytes[$0] }
        let decision = route.operationPolicy.decide(method: method, pathRemainder: remainder, query: query,
                                                    body: body, registry: snapshot.registry)
        switch decision {
        case .forwardUnchanged:
            if let collected = collectedBody { rewrite = UpstreamRewrite(body: collected) }
        case .forwardBody(let newBody):
            rewrite = UpstreamRewrite(method: Array("POST".utf8), target: route.upstreamBase, body: newBody,
                                      contentTypeJSON: true)
        case .aemGet(let pathAndQuery):
            rewrite = UpstreamRewrite(method: Array("GET".utf8), target: pathAndQuery, body: nil, dropsBody: true)
        case .refuse(let error):
            collectedBody = nil
            return respond(error)
        }
        collectedBody = nil
        forward()
    }

    // MARK: - Forwarding

    private func forward() {
        guard let route else { return }
        let pool = worker.pool(for: route.upstreamIndex)
        self.pool = pool
        upstreamStartedAt = loop.now
        exchangeDeadline = loop.now + route.timeoutNanos
        if rewrite == nil, !requestBodyDone {
            wantsRequestBody = true
            if snapshot.bodyTimeoutNanos > 0 && bodyDeadline == 0 { bodyDeadline = loop.now + snapshot.bodyTimeoutNanos }
        }
        armDeadline()
        acquireConnection(fresh: false)
    }
}
