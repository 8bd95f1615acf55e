import GatehouseConfig
import GatehouseGraphQL
import GatehouseHTTP
import GatehouseIO

/// Picking an endpoint, and trying another one when this one failed (README, "Upstream
/// endpoints and resilience"): a connect failure always may be; a request that reached the
/// upstream only when it is known to be safe (a GET, a GraphQL query) and within the budget.
extension Exchange {
    /// Bodies up to this size are parsed to tell a query from a mutation; larger ones (uploads)
    /// are never resent. The size of `server.request_buffer`'s default.
    static let maxClassifiedBodyBytes = 1 << 20

    /// The pool of the endpoint the request goes to, counted in flight there; nil (after the
    /// 503 has been answered) when every endpoint is unhealthy or ejected.
    func takeEndpoint(of group: UpstreamEndpointGroup) -> UpstreamPool? {
        guard let pool = group.pick(now: loop.now) else {
            group.metrics.record(.unavailable)
            fail(GatewayError(.unavailable, "No endpoint of the upstream is available.", source: .upstream, retry: .safe))
            return nil
        }
        if group.upstream.retriesAfterSend { group.budget.recordRequest(now: loop.now) }
        enter(pool)
        return pool
    }

    private func enter(_ pool: UpstreamPool) {
        self.pool = pool
        pool.endpoint.requestStarted()
        retryProgress.endpoint = pool.endpoint
    }

    /// The exchange no longer counts against its endpoint (it ended, or moves to another).
    func leaveEndpoint() {
        retryProgress.endpoint?.requestEnded()
        retryProgress.endpoint = nil
    }

    /// `max_pending`: a request queued beyond it is answered 503 at once.
    func refuseIfPendingFull(_ pool: UpstreamPool) -> Bool {
        guard let group = pool.group, let limit = group.upstream.config.maxPending, group.pendingCount > limit else {
            return false
        }
        pool.cancelWait(self)
        fail(GatewayError(.unavailable, "Too many requests are waiting for an upstream connection.",
                          source: .upstream, retry: .safe),
             outcome: .unavailable)
        return true
    }

    // MARK: - Outcomes

    /// Counts the outcome and tells passive ejection about it.
    func recordUpstreamOutcome(_ outcome: UpstreamMetrics.Outcome) {
        guard let pool else { return }
        pool.metrics.record(outcome)
        guard pool.upstream.config.outlier != nil else { return }
        switch outcome {
        case .success: pool.group?.recordSuccess(pool)
        case .connect_error, .timeout, .reset, .bad_response: pool.group?.recordFailure(pool, now: loop.now)
        case .unavailable: break
        }
    }

    /// A response head arrived: 502, 503 and 504 count as failures of the endpoint.
    func recordUpstreamResponse(status: Int) {
        guard let pool else { return }
        pool.metrics.record(.success)
        guard pool.upstream.config.outlier != nil else { return }  // no ejection: nothing to count
        if Self.failureStatuses.contains(status) {
            pool.group?.recordFailure(pool, now: loop.now)
        } else {
            pool.group?.recordSuccess(pool)
        }
    }

    private static let failureStatuses: Set<Int> = [502, 503, 504]

    // MARK: - Writing and resending

    /// The first time the request is queued on a connection: the head and the body that goes with
    /// it, and a copy of both when the request may have to be resent after bytes were sent.
    func writeFreshRequest(on connection: UpstreamConnection) {
        let keepsCopy = retryProgress.resendPayload == nil && pool?.upstream.retriesAfterSend == true
            && isKnownSafeToResend()
        UpstreamRequestWriter.write(exchange: self, into: &connection.output)
        queueBody(on: connection)
        if upload != nil { queueHeldUploadBytes(on: connection) }
        if keepsCopy { retryProgress.resendPayload = Array(connection.output.readable) }
    }

    /// A GET, or a GraphQL query (as sent, so a held operation counts by its stored document);
    /// never a mutation, never a streamed body.
    func isKnownSafeToResend() -> Bool {
        guard requestSide.isComplete else { return false }
        if let method = rewrite?.method { return method == Self.getMethod }
        switch head.methodKind {
        case .get: return true
        case .post: break
        default: return false
        }
        if let rewritten = rewrite?.body { return rewritten.withUnsafeBytes(Self.isGraphQLQuery) }
        if case .buffer(let buffer, _) = body, buffer.isSpooled || buffer.count > Self.maxClassifiedBodyBytes {
            return false
        }
        return withBody { $0.map(Self.isGraphQLQuery) ?? false }
    }

    private static let getMethod = Array("GET".utf8)

    static func isGraphQLQuery(_ body: UnsafeRawBufferPointer) -> Bool {
        guard case .success(let call) = OperationCall.from(method: .post, query: nil, body: body),
              let text = call.query,
              let document = try? GraphQLParser.parse(text),
              case .success(let operation) = document.operationToExecute(named: call.operationName) else { return false }
        return operation.kind == .query
    }

    // MARK: - Retrying

    /// Tries the request on another endpoint when `reason` is one the upstream retries on, tries
    /// are left, the request is safe to send again, and (after bytes were sent) the budget allows.
    /// `connection` is the failed one, if the request had been queued on it. True when retried.
    func retryElsewhere(_ reason: RetryCondition, connection: UpstreamConnection?) -> Bool {
        // Before the group: a weak reference's load is dear, and most heads are a 200.
        guard reason.mayBeRetried, let pool, let group = pool.group, !responseStarted, !isFinished else { return false }
        let retry = group.retry
        guard retry.on.contains(reason), retryProgress.attempts < retry.attempts else { return false }
        let untouched = connection.map { $0.bytesWrittenForRequest == 0 } ?? true
        if !untouched && retryProgress.resendPayload == nil { return false }
        guard let next = group.pick(now: loop.now, avoiding: pool) else { return false }
        if !untouched && !group.budget.takeRetry(now: loop.now) { return false }

        group.recordFailure(pool, now: loop.now)
        UpstreamStatusBoard.process.countRetry(upstream: group.name, reason: reason)
        if let connection, untouched {
            retryPayload = Array(connection.output.readable)  // as queued: head and body so far
        } else if !untouched {
            retryPayload = retryProgress.resendPayload
            if case .buffer(let buffer, _) = body { body = .buffer(buffer, sent: 0) }
        }
        dropUpstream()
        leaveEndpoint()
        enter(next)
        retryProgress.attempts += 1
        responseScanned = 0
        upstreamEOF = false
        upstreamStatus = nil
        stage = .connecting
        acquireConnection(fresh: false)
        return true
    }
}
