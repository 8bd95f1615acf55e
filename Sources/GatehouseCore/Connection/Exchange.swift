import GatehouseHTTP
import GatehouseIO

/// One request on a client connection, from its parsed head to the last response byte: the
/// request phases, the upstream exchange and the response. Created per request; it owns the
/// upstream connection while it runs. Where it is is one `Stage`; its request body's progress
/// is one `RequestSide`.
final class Exchange {
    enum Stage {
        /// Running the request phases (`Exchange+Phases.swift`).
        case phases
        /// A phase waits for an answer from the loop.
        case waiting(RequestPhase, PendingAnswer)
        /// A phase waits for the whole request body; it runs again once it is read.
        case readingBody(resume: RequestPhase)
        /// Taking an upstream connection: waiting in the pool, or connecting.
        case connecting
        /// The request is with the upstream; no response head yet.
        case forwarding
        /// The response head waits (`Exchange+Response.swift`).
        case holdingResponse(until: ResponseHold)
        /// The response head is out; the body flows.
        case responding
        /// The whole response is queued; finishing once the client has it.
        case responded
        case done
    }

    /// What a held response head waits for before it goes to the client.
    enum ResponseHold {
        /// `map_graphql_errors`: the body's classification.
        case bodyClassified
        /// Response cache: the body's verdict, so `Cache-Status` can say `stored`
        /// (`Exchange+StoredStatus.swift`).
        case cacheVerdict
        /// The first body bytes, to go out with them rather than in a send of its own.
        case firstBodyBytes
    }

    /// Body framing of the request as it is read from the client.
    enum BodyFraming {
        case length(remaining: Int)
        case chunked(ChunkedDecoder, received: Int)
    }

    enum RequestSide {
        /// No body, or every byte of it has been read.
        case complete
        /// Not read yet (the phases have not asked for it).
        case unread(BodyFraming)
        /// Being read into `bodyBuffer` (a phase waits for it).
        case buffering(BodyFraming)
        /// Being streamed to the upstream as it arrives (`request_buffering: false`).
        case streaming(BodyFraming)

        var isComplete: Bool {
            if case .complete = self { return true }
            return false
        }
    }

    /// Where the body that goes upstream is, once read.
    enum BodySource {
        case none
        /// A Content-Length body that was already here with the head: it is forwarded straight
        /// from the connection's input, without a copy.
        case input(length: Int)
        /// Read whole: in memory, or spooled to a temporary file.
        case buffer(RequestBodyBuffer, sent: Int)

        var isNone: Bool {
            if case .none = self { return true }
            return false
        }
    }

    /// `Expect: 100-continue`.
    enum Continue {
        case notAsked
        case wanted
        case sent
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

    /// Buffers between the two sides stop filling at this mark (backpressure).
    static let highWater = 64 * 1024

    /// The connection outlives its exchange: everything that can call into an exchange later
    /// (pool waiters, upstream events, pending answers) is cancelled when it finishes or the
    /// client aborts. Strong all the same: a `let` is read without a retain, an unowned one with
    /// one on every use. The connection lets go of its exchange when it finishes or the socket
    /// closes, which ends the cycle.
    let connection: ClientConnection
    let head: RequestHead
    let snapshot: GatewaySnapshot
    let requestID: RequestID
    /// The W3C trace this request belongs to: the client's, or one the gateway started.
    let traceContext: TraceContext
    var timing: RequestTiming
    var route: CompiledRoute?
    var keepAlive: Bool
    var stage: Stage = .phases

    // Request.
    var requestSide: RequestSide = .complete
    var body: BodySource = .none
    var expectation: Continue
    var bytesIn: Int
    var subject: String?
    var claimHeaderBlock: [UInt8] = []
    /// A `token_from: query:NAME` parameter, left out of the forwarded URL (`ForwardedQuery`).
    var tokenQueryParameter: Range<Int>?
    /// What the operation policy changed about the upstream request.
    var rewrite: UpstreamRewrite?
    /// The operation as the cache identifies it, when the policy phase already knew it (a GET
    /// call translated before: `PreparedCallMemo`).
    var identifiedOperation: IdentifiedOperation?
    var deadlines = ExchangeDeadlines()
    var bodyRate: BodyRateMeter?

    // Upstream.
    var upstream: UpstreamConnection?
    var pool: UpstreamPool?
    /// Requests sent on a fresh connection after a pooled one was found dead (at most one).
    var retries = 0
    /// What a dead pooled connection had queued (head and body), sent again on the retry.
    var retryPayload: [UInt8]?
    /// Tries across the upstream's endpoints (`Exchange+Retry.swift`).
    var retryProgress = RetryProgress()

    // Response.
    var responseScanned = 0
    var responseHead: ResponseHead?
    /// Whether the upstream's final head is in, told without copying it (and its arrays) out.
    var hasResponseHead: Bool {
        if case .none = responseHead { return false }
        return true
    }
    var responseBody: ResponseBody = .none
    /// Set when the gateway gzips this response.
    var gzip: ResponseGzip?
    var upstreamEOF = false
    var bytesOut = 0
    var status = 0
    var upstreamStatus: Int?
    var errorCode: String?
    /// The `Cache-Status` line of a cached route's response, whoever writes it (the upstream's
    /// head or an error envelope). With the `RateLimit` fields, written by `appendExtraFields`.
    var cacheStatusLine: CacheStatusLine?
    /// Rate limits: the identity for the second stage, the limit closest to exhaustion.
    var rateLimitProgress = RateLimitProgress()
    /// Response cache (Cache/): the lookup in progress, and what the cache does with this
    /// exchange (with the response being captured for storage). nil on routes without `cache`.
    var cacheLookup: CacheLookupState?
    var cacheWork: CacheWork?
    /// A WebSocket handshake on a `websocket` route; nil for every other request.
    var webSocket: WebSocketUpgrade?
    /// A multipart body on an `uploads` route, checked as it streams (`Exchange+Upload.swift`).
    var upload: UploadStream?

    init(connection: ClientConnection, head: RequestHead, snapshot: GatewaySnapshot, requestID: RequestID,
         headBytes: Int, startedAt: UInt64) {
        self.connection = connection
        self.snapshot = snapshot
        self.requestID = requestID
        traceContext = connection.worker.traceContext(for: head)
        timing = RequestTiming(started: startedAt != 0 ? startedAt : connection.loop.now)
        keepAlive = head.keepAlive
        bytesIn = headBytes
        expectation = head.expectContinue ? .wanted : .notAsked
        self.head = head  // last: the head moves in, not copied
    }

    var worker: Worker { connection.worker }
    var loop: EventLoop { connection.loop }

    var isFinished: Bool {
        if case .done = stage { return true }
        return false
    }

    /// The response head has gone (or is going) to the client: a failure can only abort now.
    var responseStarted: Bool {
        switch stage {
        case .responding, .responded, .done: return true
        default: return false
        }
    }

    var waitingForPool: Bool {
        if case .connecting = stage { return upstream == nil }
        return false
    }

    /// Body bytes are being read from the client.
    var wantsRequestBody: Bool {
        switch requestSide {
        case .buffering, .streaming: return true
        case .complete, .unread: return false
        }
    }

    var isCollectingBody: Bool {
        if case .buffering = requestSide { return true }
        return false
    }

    /// Whether the client socket should be read now: body bytes while there is room for them,
    /// otherwise early pipelined bytes up to the high-water mark (and the end of the stream).
    var wantsClientInput: Bool {
        switch requestSide {
        case .buffering:
            return true
        case .streaming:
            guard let upstream, upstream.state == .active || upstream.state == .connecting else { return false }
            return upstream.output.readableCount < Self.highWater
        case .complete, .unread:
            return connection.input.readableCount < Self.highWater
        }
    }

    // MARK: - Deadlines

    var activity: ExchangeDeadlines.Activity {
        .init(readingBody: wantsRequestBody, waitingForPool: waitingForPool, responseStarted: responseStarted,
              streaming: connection.machine.mode == .stream)
    }

    /// The client is one of `server.trusted_proxies` (README, "Hardening"), by this
    /// request's snapshot.
    var clientIsTrustedProxy: Bool {
        snapshot.trustedProxies.contains { $0.contains(connection.client.bytes) }
    }

    func armDeadline() {
        connection.setDeadline(deadlines.next(activity))
    }

    /// The route timeout counts from the first wait or the forward, whichever comes first.
    func armRouteDeadlineIfNeeded() {
        if deadlines.route == 0, let route { deadlines.route = loop.now + route.timeoutNanos }
    }

    func deadlineReached(now: UInt64) {
        if deadlines.bodyRate != 0 && now >= deadlines.bodyRate, var meter = bodyRate {
            let tooSlow = meter.tick()
            bodyRate = meter
            if !tooSlow {
                deadlines.bodyRate = now + BodyRateMeter.tickNanos
                return deadlineReached(now: now)
            }
        }
        switch deadlines.expired(at: now, activity) {
        case .body:
            fail(GatewayError(.requestTimeout, "The request body was not received in time."))
        case .bodyRate:
            fail(GatewayError(.requestTimeout, "The request body arrives too slowly."))
        case .poolWait:
            fail(GatewayError(.unavailable, "No upstream connection became free in time."), outcome: .unavailable)
        case .upstream, .response:
            fail(GatewayError(.upstreamTimeout, "The upstream did not answer in time."), outcome: .timeout)
        case .streamIdle:
            endSilentStream()
        case nil:
            armDeadline()
        }
    }
}

/// When the moments of one request happened, read from the monotonic clock at the events
/// themselves (not the loop's cached time), for the access log's microsecond durations.
struct RequestTiming {
    /// The first byte of the request head arrived.
    var started: UInt64
    /// The gateway began forwarding (took an upstream connection).
    var upstreamStarted: UInt64 = 0
    /// The last response byte came from the upstream.
    var upstreamFinished: UInt64 = 0
}
