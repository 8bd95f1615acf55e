import GatehouseHTTP
import GatehouseIO

/// One request on a client connection, from its parsed head to the last response byte: the
/// request phases, the upstream exchange and the response. Created per request; it owns the
/// upstream connection while it runs.
final class Exchange {
    /// Body framing of the request as it is read from the client.
    enum RequestBody {
        case none
        case length(remaining: Int)
        case chunked(ChunkedDecoder, received: Int)
    }

    /// Framing of the response body as it is copied to the client.
    enum ResponseBody {
        case none
        case length(remaining: Int)
        /// `verbatim`: chunks go to the client as received (HTTP/1.1 clients); otherwise only
        /// the data (HTTP/1.0 clients, the connection closes at the end).
        case chunked(ChunkedDecoder, verbatim: Bool)
        case untilClose
    }

    static let highWater = 64 * 1024
    /// Bodies up to this size are read whole before an upstream connection is taken: a slow
    /// client never holds an upstream connection, a malformed chunked body never reaches one,
    /// and head and body leave in one write. Larger bodies stream.
    static let requestBufferLimit = 64 * 1024

    enum CollectionPurpose {
        /// The operation policy needs the whole body (up to `max_body_bytes`).
        case policy
        /// Small-body buffering: up to `requestBufferLimit`, then streaming.
        case buffering
    }

    /// The connection outlives its exchange: everything that can call into an exchange later
    /// (pool waiters, upstream events) is cancelled when it finishes or the client aborts.
    unowned(unsafe) let connection: ClientConnection
    let head: RequestHead
    let snapshot: GatewaySnapshot
    let requestID: String
    /// The W3C trace this request belongs to: the client's, or one the gateway started.
    let traceContext: TraceContext
    let startedAt: UInt64
    var route: CompiledRoute?
    var keepAlive: Bool

    // Request body.
    var requestBody: RequestBody = .none
    var wantsRequestBody = false
    /// Every body byte of this request has been read from the client.
    var requestBodyDone = false
    var continueSent = false
    var bytesIn: Int

    // Upstream.
    var upstream: UpstreamConnection?
    var pool: UpstreamPool?
    var waitingForConnection = false
    var upstreamStartedAt: UInt64 = 0
    var upstreamFinishedAt: UInt64 = 0
    var retried = false
    /// What a dead pooled connection had queued (head and body), sent again on the retry.
    var retryPayload: [UInt8]?
    var exchangeDeadline: UInt64 = 0
    var bodyDeadline: UInt64 = 0
    var claimHeaderBlock: [UInt8] = []
    /// Request body bytes read before the upstream is contacted: the whole body for the
    /// operation policy, or a small body buffered so it reaches the upstream in one piece.
    var collectedBody: [UInt8]?
    var collectionPurpose: CollectionPurpose = .buffering
    /// Buffered body bytes that go out ahead of the streamed rest (a chunked body that outgrew
    /// the buffer).
    var prebufferedBody: [UInt8]?
    /// What the operation policy changed about the upstream request.
    var rewrite: UpstreamRewrite?

    // Response.
    var responseScanned = 0
    var responseHead: ResponseHead?
    var responseStarted = false
    var responseBody: ResponseBody = .none
    var responseComplete = false
    /// `map_graphql_errors`: the response head waits until the body has been classified.
    var holdingForClassification = false
    /// Set when the gateway gzips this response.
    var gzip: ResponseGzip?
    var upstreamEOF = false
    var bytesOut = 0
    var status = 0
    var upstreamStatus: Int?
    var errorCode: String?
    var subject: String?
    var finished = false

    init(connection: ClientConnection, head: RequestHead, snapshot: GatewaySnapshot, requestID: String,
         headBytes: Int) {
        self.connection = connection
        self.head = head
        self.snapshot = snapshot
        self.requestID = requestID
        traceContext = connection.worker.traceContext(for: head)
        startedAt = connection.loop.now
        keepAlive = head.keepAlive
        bytesIn = headBytes
    }

    var worker: Worker { connection.worker }
    var loop: EventLoop { connection.loop }

    /// The client socket may be read for more body bytes (the upstream buffer has room).
    var canTakeRequestBody: Bool {
        if collectedBody != nil { return true }
        guard let upstream, upstream.state == .active || upstream.state == .connecting else { return false }
        return upstream.output.readableCount < Self.highWater
    }

    // MARK: - Deadlines

    func armDeadline() {
        var next = exchangeDeadline
        if wantsRequestBody && bodyDeadline != 0 && (next == 0 || bodyDeadline < next) { next = bodyDeadline }
        connection.setDeadline(next)
    }

    func deadlineReached(now: UInt64) {
        if wantsRequestBody && bodyDeadline != 0 && now >= bodyDeadline {
            fail(GatewayError(.requestTimeout, "The request body was not received in time."), outcome: nil)
        } else if exchangeDeadline != 0 && now >= exchangeDeadline {
            if waitingForConnection {
                fail(GatewayError(.unavailable, "No upstream connection became free in time."), outcome: .unavailable)
            } else {
                fail(GatewayError(.upstreamTimeout, "The upstream did not answer in time."), outcome: .timeout)
            }
        } else {
            armDeadline()
        }
    }

    // MARK: - Ending

    /// Answers with a gateway error, or aborts the client connection when the response has
    /// already begun. Any upstream connection is discarded (its state is unknown).
    func fail(_ error: GatewayError, outcome: UpstreamMetrics.Outcome?) {
        if let outcome { pool?.metrics.record(outcome) }
        dropUpstream()
        if responseStarted {
            errorCode = ErrorEnvelope.mapping(for: error.kind).code.description
            finish(aborted: true)
            return
        }
        respond(error)
    }

    /// Writes an error envelope as the response.
    func respond(_ error: GatewayError) {
        let mapping = ErrorEnvelope.mapping(for: error.kind)
        status = mapping.status
        if error.kind != .persistedQueryNotFound { errorCode = mapping.code.description }
        if !requestBodyDone && !discardBufferedBody() { keepAlive = false }
        wantsRequestBody = false
        responseStarted = true
        responseComplete = true
        ErrorEnvelope.render(error, requestID: requestID, keepAlive: keepAlive && !worker.isDraining,
                             headRequest: head.methodKind == .head, into: &connection.output)
        connection.flushOutput()
    }

    /// A refused request whose whole Content-Length body is already buffered is skipped, so the
    /// connection can stay open; any other unread body closes it (its bytes must never be read
    /// as a next request).
    private func discardBufferedBody() -> Bool {
        guard case .length(let remaining) = requestBody, !wantsRequestBody, collectedBody == nil,
              connection.input.readableCount >= remaining else { return false }
        connection.input.consume(remaining)
        bytesIn += remaining
        requestBody = .none
        requestBodyDone = true
        return true
    }

    /// True when the request carried no body bytes at all.
    var requestBodyIsEmpty: Bool {
        switch head.framing {
        case .none, .contentLength(0): return true
        default: return false
        }
    }

    func dropUpstream() {
        if waitingForConnection {
            pool?.cancelWait(self)
            waitingForConnection = false
        }
        if let upstream {
            self.upstream = nil
            upstream.owner = nil
            upstream.pool.discard(upstream)
        }
    }

    /// The client connection closed or failed under us.
    func clientAborted() {
        guard !finished else { return }
        finished = true
        returnGzipStream()
        dropUpstream()
        if status == 0 { status = 499 }
        errorCode = errorCode ?? "CLIENT_CLOSED"
        record()
    }

    /// Called by the connection when its output buffer has drained.
    func clientDrained() {
        if responseComplete {
            finish(aborted: false)
        } else if let upstream {
            upstream.updateInterest(wantRead: true)
            if !upstream.input.isEmpty { processUpstreamInput(upstream) }
        } else {
            connection.updateInterest()
        }
    }

    func finish(aborted: Bool) {
        guard !finished else { return }
        finished = true
        returnGzipStream()
        record()
        if aborted {
            connection.exchange = nil
            connection.abort()
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
    private func record() {
        let now = loop.now
        let duration = now - startedAt
        worker.routeMetrics(for: route).record(status: status, micros: Int(duration / 1000))
        guard worker.accessLog.isEnabled else { return }
        head.bytes.withUnsafeBytes { raw in
            let method = UnsafeRawBufferPointer(rebasing: raw[head.method])
            let path = UnsafeRawBufferPointer(rebasing: raw[head.path])
            var upstreamNanos: UInt64?
            if upstreamStartedAt != 0 { upstreamNanos = (upstreamFinishedAt != 0 ? upstreamFinishedAt : now) - upstreamStartedAt }
            worker.accessLog.write(AccessRecord(
                requestID: requestID, method: method, path: path, route: route?.label, status: status,
                upstreamStatus: upstreamStatus, durationNanos: duration, upstreamNanos: upstreamNanos,
                bytesIn: bytesIn, bytesOut: bytesOut, client: connection.client.text, errorCode: errorCode,
                subject: subject, traceContext: traceContext))
        }
    }
}
