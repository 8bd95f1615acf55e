import GatehouseHTTP
import GatehouseIO

/// How an exchange ends: answered by the gateway, finished cleanly, cut off, or abandoned by
/// the client. Every ending passes `record()`, the one place that counts and logs a request.
extension Exchange {
    /// Answers with a gateway error, or aborts the client connection when the response has
    /// already begun. Any upstream connection is discarded (its state is unknown).
    func fail(_ error: GatewayError, outcome: UpstreamMetrics.Outcome? = nil) {
        if let outcome { recordUpstreamOutcome(outcome) }
        cancelWait()
        dropUpstream()
        // Response cache: within stale_if_error a failed upstream is answered from the stale entry.
        if cacheWork != nil, serveStaleInsteadOfError(status: ErrorEnvelope.mapping(for: error.kind).status) { return }
        if responseStarted {
            errorCode = ErrorEnvelope.mapping(for: error.kind).code.description
            return finish(aborted: true)
        }
        respond(error)
    }

    /// Writes an error envelope as the response.
    func respond(_ error: GatewayError) {
        let mapping = ErrorEnvelope.mapping(for: error.kind)
        status = mapping.status
        if error.kind != .persistedQueryNotFound { errorCode = mapping.code.description }
        if !requestSide.isComplete && !skipUnreadBody() { keepAlive = false }
        requestSide = .complete
        dropBodyInInput()
        stage = .responded
        ErrorEnvelope.render(error, requestID: requestID, keepAlive: keepAlive && !worker.isDraining,
                             announceKeepAlive: head.version == .http10, headRequest: head.methodKind == .head,
                             extraFields: appendExtraFields, into: &connection.output)
        connection.flushOutput()
    }

    /// A refused request whose whole Content-Length body is already buffered is skipped, so the
    /// connection can stay open; any other unread body closes it (its bytes must never be read
    /// as a next request).
    private func skipUnreadBody() -> Bool {
        guard case .unread(.length(let remaining)) = requestSide,
              connection.input.readableCount >= remaining else { return false }
        connection.input.consume(remaining)
        bytesIn += remaining
        return true
    }

    /// A body taken as it lay in the input (`BodySource.input`) that will not be forwarded is
    /// skipped there, so its bytes are never read as a next request.
    private func dropBodyInInput() {
        guard case .input(let length) = body else { return }
        connection.input.consume(length)
        bytesIn += length
        body = .none
    }

    func dropUpstream() {
        if waitingForPool { pool?.cancelWait(self) }
        if let upstream {
            self.upstream = nil
            upstream.owner = nil
            upstream.pool.discard(upstream)
        }
    }

    /// The client connection closed or failed under us.
    func clientAborted() {
        guard !isFinished else { return }
        cancelWait()
        stage = .done
        returnGzipStream()
        dropUpstream()
        leaveEndpoint()
        if status == 0 { status = ErrorEnvelope.clientClosedStatus }
        errorCode = errorCode ?? ErrorEnvelope.clientClosedCode
        record()
    }

    /// Called by the connection when its output buffer has drained.
    func clientDrained() {
        switch stage {
        case .responded:
            finish(aborted: false)
        case .responding, .holdingResponse, .forwarding:
            if let upstream {
                upstream.updateInterest(wantRead: true)
                if !upstream.input.isEmpty { processUpstreamInput(upstream) }
            } else {
                connection.updateInterest()
            }
        default:
            connection.updateInterest()
        }
    }

    func finish(aborted: Bool) {
        guard !isFinished else { return }
        stage = .done
        returnGzipStream()
        leaveEndpoint()
        record()
        if aborted {
            connection.exchangeAborted()
        } else {
            connection.exchangeFinished(keepAlive: keepAlive)
        }
    }

    private func returnGzipStream() {
        guard let gzip else { return }
        self.gzip = nil
        worker.gzipStreams.recycle(gzip)
    }

    /// Metrics and the access-log line.
    func record() {
        if cacheWork != nil { cacheExchangeEnded() }  // response cache: release a fill
        let now = loop.now
        var upstreamNanos: UInt64?
        if timing.upstreamStarted != 0 {
            upstreamNanos = (timing.upstreamFinished != 0 ? timing.upstreamFinished : now) - timing.upstreamStarted
        }
        let durationNanos = now &- timing.started
        worker.record(route: route, status: status, durationNanos: durationNanos) {
            head.bytes.withUnsafeBytes { raw in
                RequestRecord(
                    requestID: requestID, method: UnsafeRawBufferPointer(rebasing: raw[head.method]),
                    path: UnsafeRawBufferPointer(rebasing: raw[head.path]), route: route, status: status,
                    upstreamStatus: upstreamStatus, durationNanos: durationNanos, upstreamNanos: upstreamNanos,
                    bytesIn: bytesIn, bytesOut: bytesOut, client: connection.client.text, errorCode: errorCode,
                    subject: subject, traceContext: traceContext)
            }
        }
    }
}
