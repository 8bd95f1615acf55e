import GatehouseHTTP
import GatehouseIO

/// Reading the upstream response, mapping failures into envelopes and streaming the body back.
extension Exchange {
    func processUpstreamInput(_ upstream: UpstreamConnection) {
        while !hasResponseHead {
            if case .done = stage { return }
            let parser = ResponseHeadParser()
            switch parser.parse(upstream.input.readable, requestMethod: head.methodKind, scanned: &responseScanned) {
            case .incomplete:
                if upstreamEOF {
                    if retryElsewhere(.reset, connection: upstream) { return }
                    let error = GatewayError(.upstreamError(upstreamStatus: nil), "The upstream closed the connection without a response.")
                    fail(error, outcome: .reset)
                }
                return
            case .invalid:
                fail(GatewayError(.upstreamError(upstreamStatus: nil), "The upstream sent a malformed response."), outcome: .bad_response)
                return
            case .complete(let response, let consumed):
                upstream.input.consume(consumed)
                responseScanned = 0
                if response.isInterim {
                    if response.status == 101 {
                        if webSocket != nil { upstreamSwitchedProtocols(response, upstream); return }
                        fail(GatewayError(.upstreamError(upstreamStatus: 101), "The upstream switched protocols unexpectedly."),
                             outcome: .bad_response)
                        return
                    }
                    continue  // 100 Continue, 103 Early Hints: skipped
                }
                if !handleResponseHead(response, upstream) { return }
            }
        }
        if case .holdingResponse(let hold) = stage {
            let released = switch hold {
            case .bodyClassified: releaseHeldResponse(upstream)
            case .cacheVerdict: releaseHeadHeldForCacheStatus(upstream)
            case .firstBodyBytes: releaseHeadAwaitingBody(upstream)
            }
            if !released { return }
        }
        pumpResponseBody(upstream)
    }

    /// Either maps the response to an envelope (returns false) or starts it towards the client.
    private func handleResponseHead(_ response: consuming ResponseHead, _ upstream: UpstreamConnection) -> Bool {
        if retryElsewhere(.status(response.status), connection: upstream) { return false }
        upstreamStatus = response.status
        recordUpstreamResponse(status: response.status)
        // Response cache: a 5xx within stale_if_error is answered from the stale entry.
        if response.status >= 500, cacheWork != nil, serveStaleInsteadOfError(status: response.status) {
            timing.upstreamFinished = loop.now
            dropUpstream()
            return false
        }
        if let error = UpstreamErrorMapping.error(for: response) {
            timing.upstreamFinished = loop.now
            dropUpstream()  // its body is not wanted; the connection cannot be reused
            respond(error)
            return false
        }
        status = response.status
        if cacheWork != nil { cacheResponseHead(response) }  // response cache: may this be stored?
        switch response.framing {
        case .none:
            responseBody = .none
        case .contentLength(let length):
            responseBody = length > 0 ? .length(remaining: length) : .none
        case .chunked:
            let verbatim = head.version == .http11
            if !verbatim { keepAlive = false }
            responseBody = .chunked(ChunkedDecoder(), verbatim: verbatim)
        case .closeDelimited:
            keepAlive = false
            responseBody = .untilClose
        }
        if wantsRequestBody { keepAlive = false }  // answered before the whole body arrived
        if case .chunked = response.framing, Self.hasMalformedChunks(upstream.input.readable) {
            // Caught before the head goes out, the client still gets a clean 502.
            responseHead = consume response
            fail(GatewayError(.upstreamError(upstreamStatus: status), "The upstream sent a malformed body."),
                 outcome: .bad_response)
            return false
        }
        if route?.mapGraphQLErrors == true && response.status / 100 == 2 && response.framing != .none
            && UpstreamErrorMapping.hasJSONBody(response) {
            stage = .holdingResponse(until: .bodyClassified)
        } else if cacheWork?.capture != nil, holdsResponseHeadForCacheStatus(response),
                  !settlesCacheStatusAtOnce(upstream) {
            stage = .holdingResponse(until: .cacheVerdict)  // response cache: `stored` once the body is in
        } else if upstream.input.isEmpty && Self.headWaitsForBody(response) {
            stage = .holdingResponse(until: .firstBodyBytes)
        } else {
            writeResponseHead(response)
        }
        // Kept (moved, not copied) for a held head's release and the connection's reuse.
        responseHead = consume response
        return true
    }

    private func writeResponseHead(_ response: ResponseHead) {
        let compression = snapshot.config.server.compression
        if ResponseCompression.applies(request: head, response: response, config: compression) {
            gzip = worker.gzipStreams.take(level: compression.level)
            if head.version != .http11 { keepAlive = false }  // gzip of unknown length: until close
            if case .chunked(let decoder, _) = responseBody { responseBody = .chunked(decoder, verbatim: false) }
        }
        stage = .responding
        ResponseHeadWriter.write(response, exchange: self, keepAlive: keepAlive && !worker.isDraining,
                                 into: &connection.output)
        if StreamedResponse.isStreamed(response) { beginStream() }
    }

    // MARK: - A head that came before its body

    /// A head sent apart from its body costs a send, and the client a read, of their own (nginx
    /// serving a file sends the two apart: the head with writev, the body with sendfile). Like
    /// nginx's `postpone_output`, the head waits for the first body bytes. Not a streamed
    /// response: its head goes out at once, whatever follows.
    private static func headWaitsForBody(_ response: ResponseHead) -> Bool {
        switch response.framing {
        case .contentLength(let length): guard length > 0 else { return false }
        case .chunked: break
        case .none, .closeDelimited: return false
        }
        return !StreamedResponse.isStreamed(response)
    }

    /// True once body bytes are here (the head was written ahead of them). A connection that
    /// closes first leaves the client without a byte of the response: it gets the 502.
    private func releaseHeadAwaitingBody(_ upstream: UpstreamConnection) -> Bool {
        guard upstream.input.isEmpty else {
            if let response = responseHead { writeResponseHead(response) }
            return true
        }
        if upstreamEOF { failTruncated() }
        return false
    }

    // MARK: - map_graphql_errors

    /// Holds the response until its body is complete (or too large to be only an error), then
    /// either answers with the 401/403 envelope or lets the response through. Returns true when
    /// the response may stream on. A gzip body is inflated to be read, within
    /// `server.compression.max_inflated_size`: a body that inflates beyond it without showing
    /// data is refused (zip-bomb safe).
    private func releaseHeldResponse(_ upstream: UpstreamConnection) -> Bool {
        let held = upstream.input.readable
        let limit = GraphQLErrorClassifier.maxBodyBytes
        let holdLimit = limit + 16 * 1024
        let compressed = responseHead.map(Self.isGzipEncoded) ?? false
        var raw: [UInt8] = []
        var complete = false
        switch responseBody {
        case .none:
            complete = true
        case .length(let length):
            if length > limit && !compressed { return letHeldResponseThrough() }
            raw = Array(held.prefix(length))
            complete = held.count >= length
        case .chunked:
            switch Self.dechunk(held) {
            case .data(let data, let ended):
                raw = data
                complete = ended
            case .unusable:
                return letHeldResponseThrough()
            }
        case .untilClose:
            raw = Array(held)
            complete = upstreamEOF
        }
        var body: [UInt8]?
        if compressed {
            var inflater = GzipInflater()
            var inflated: [UInt8] = []
            let maxInflated = snapshot.config.server.compression.maxInflatedSize
            let result = raw.withUnsafeBytes { inflater.inflate($0, into: &inflated, limit: maxInflated) }
            switch result {
            case .overLimit:
                if inflated.withUnsafeBytes({ GraphQLErrorClassifier.hasNonNullData(UnsafeRawBufferPointer(rebasing: $0.prefix(limit))) }) {
                    return letHeldResponseThrough()
                }
                fail(GatewayError(.upstreamError(upstreamStatus: upstreamStatus),
                                  "The upstream's compressed body inflates beyond the gateway's limit."),
                     outcome: .bad_response)
                return false
            case .invalid:
                fail(GatewayError(.upstreamError(upstreamStatus: upstreamStatus), "The upstream sent a malformed compressed body."),
                     outcome: .bad_response)
                return false
            case .progress, .finished:
                if complete { body = inflated }
            }
        } else if complete {
            body = raw
        }
        guard let body else {
            // Cut short: nothing of the response went out yet, so the client gets the envelope.
            if upstreamEOF { return failTruncated() }
            if held.count > holdLimit { return letHeldResponseThrough() }
            return false  // wait for the rest
        }
        if let refusal = body.withUnsafeBytes({ GraphQLErrorClassifier.classify($0) }) {
            timing.upstreamFinished = loop.now
            dropUpstream()
            switch refusal {
            case .unauthenticated:
                respond(.upstreamAnswer(.unauthenticated, "The upstream refused the credentials."))
            case .forbidden:
                respond(.upstreamAnswer(.forbidden, "The upstream refused access."))
            }
            return false
        }
        return letHeldResponseThrough()
    }

    func letHeldResponseThrough() -> Bool {
        if cacheWork?.capture != nil { settleCacheStatus() }  // response cache: `Cache-Status: …; stored`
        if let response = responseHead { writeResponseHead(response) }
        return true
    }

    private static func isGzipEncoded(_ response: ResponseHead) -> Bool {
        guard let range = response.headerValue(named: "content-encoding") else { return false }
        let value = response.bytes[range].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return value == Array("gzip".utf8) || value == Array("x-gzip".utf8)
    }

    enum Dechunked {
        /// The data so far, and whether the body ended.
        case data([UInt8], ended: Bool)
        case unusable
    }

    /// The data of a chunked body held so far, without consuming it.
    static func dechunk(_ held: UnsafeRawBufferPointer) -> Dechunked {
        var decoder = ChunkedDecoder()
        var data: [UInt8] = []
        var offset = 0
        while offset < held.count {
            let rest = UnsafeRawBufferPointer(rebasing: held[offset...])
            switch decoder.decode(rest) {
            case .data(let range, let consumed):
                data.append(contentsOf: rest[range])
                offset += consumed
            case .needMore:
                return .data(data, ended: false)
            case .end:
                return .data(data, ended: true)
            case .invalid:
                return .unusable
            }
        }
        return .data(data, ended: false)
    }

    /// Whether the chunked body bytes already received are malformed (checked on a copy of the
    /// decoder; nothing is consumed).
    private static func hasMalformedChunks(_ received: UnsafeRawBufferPointer) -> Bool {
        var decoder = ChunkedDecoder()
        var offset = 0
        while offset < received.count {
            switch decoder.decode(UnsafeRawBufferPointer(rebasing: received[offset...])) {
            case .data(_, let consumed): offset += consumed
            case .needMore, .end: return false
            case .invalid: return true
            }
        }
        return false
    }


    private func pumpResponseBody(_ upstream: UpstreamConnection) {
        let client = connection
        if !upstream.input.isEmpty { streamChunkArrived() }
        var responseComplete = false
        copying: while !responseComplete && client.output.readableCount < Self.highWater {
            switch responseBody {
            case .none:
                responseComplete = true
            case .length(let remaining):
                if upstream.input.isEmpty { break copying }
                let n = min(remaining, upstream.input.readableCount)
                deliverBody(UnsafeRawBufferPointer(rebasing: upstream.input.readable[0..<n]))
                upstream.input.consume(n)
                responseBody = .length(remaining: remaining - n)
                if remaining == n { responseComplete = true }
            case .chunked(var decoder, let verbatim):
                if upstream.input.isEmpty { break copying }
                let readable = upstream.input.readable
                switch decoder.decode(readable) {
                case .data(let range, let consumed):
                    if verbatim {
                        client.output.append(UnsafeRawBufferPointer(rebasing: readable[0..<consumed]))
                        cacheWork?.tee(UnsafeRawBufferPointer(rebasing: readable[range]))  // response cache tee
                    } else {
                        deliver(UnsafeRawBufferPointer(rebasing: readable[range]))
                    }
                    upstream.input.consume(consumed)
                case .needMore(let consumed):
                    if verbatim { client.output.append(UnsafeRawBufferPointer(rebasing: readable[0..<consumed])) }
                    upstream.input.consume(consumed)
                    responseBody = .chunked(decoder, verbatim: verbatim)
                    break copying
                case .end(let consumed):
                    if verbatim { client.output.append(UnsafeRawBufferPointer(rebasing: readable[0..<consumed])) }
                    upstream.input.consume(consumed)
                    responseComplete = true
                case .invalid:
                    fail(GatewayError(.upstreamError(upstreamStatus: upstreamStatus), "The upstream sent a malformed body."),
                         outcome: .bad_response)
                    return
                }
                responseBody = .chunked(decoder, verbatim: verbatim)
            case .untilClose:
                if upstream.input.isEmpty {
                    if upstreamEOF { responseComplete = true }
                    break copying
                }
                deliverBody(upstream.input.readable)
                upstream.input.consume(upstream.input.readableCount)
            }
        }
        if !responseComplete && upstreamEOF && upstream.input.isEmpty {
            // Truncated: the client has a partial response; it must not take it for a whole one.
            failTruncated()
            return
        }
        if responseComplete {
            stage = .responded
            finishCompression()
            timing.upstreamFinished = loop.now
            releaseUpstream(upstream)
            if cacheWork != nil {
                // Response cache: the client has its response before the entry is made and stored
                // (ETag, store), so that work is not on its wait; the exchange ends once it is done.
                if case .failed = client.writeOutput() { return }
                cacheResponseComplete()
            }
        } else {
            upstream.updateInterest(wantRead: client.output.readableCount < Self.highWater)
        }
        client.flushOutput()
    }

    /// The upstream closed before the end of its response.
    /// The upstream closed before the whole body came. False: the response does not stream on.
    @discardableResult
    func failTruncated() -> Bool {
        fail(GatewayError(.upstreamError(upstreamStatus: upstreamStatus), "The upstream response was truncated."),
             outcome: .reset)
        return false
    }

    // MARK: - Body delivery

    /// Response body data towards the client: as it is, or through gzip.
    @inline(__always)
    /// Body bytes as they lie in the upstream's buffer: more than the output has room for go out
    /// behind what it holds in one send rather than growing it (`writeOutput(thenBody:)`).
    private func deliverBody(_ data: UnsafeRawBufferPointer) {
        guard gzip == nil, data.count > connection.output.tailSpace else { return deliver(data) }
        cacheWork?.tee(data)  // response cache tee
        connection.writeOutput(thenBody: data)
    }

    private func deliver(_ data: UnsafeRawBufferPointer) {
        cacheWork?.tee(data)  // response cache tee
        guard let gzip else {
            connection.output.append(data)
            return
        }
        gzip.encoder.compress(data, into: &gzip.scratch)
        emitCompressed(gzip)
    }

    private func finishCompression() {
        guard let gzip, !gzip.encoder.isFinished else { return }
        gzip.encoder.finish(into: &gzip.scratch)
        emitCompressed(gzip)
        if head.version == .http11 { connection.output.append(ChunkedEncoder.lastChunk) }
    }

    /// Compressed bytes go out as chunks to HTTP/1.1 clients, as they are (until close) to HTTP/1.0.
    private func emitCompressed(_ gzip: ResponseGzip) {
        guard !gzip.scratch.isEmpty else { return }
        gzip.scratch.withUnsafeBytes { compressed in
            if head.version == .http11 {
                connection.output.appendChunk(compressed)
            } else {
                connection.output.append(compressed)
            }
        }
        gzip.scratch.removeAll(keepingCapacity: true)
    }

    /// Back to the pool when the exchange ended cleanly; otherwise closed. Bytes after the end of
    /// the response mean the framing cannot be trusted (response-queue poisoning): never reuse.
    private func releaseUpstream(_ upstream: UpstreamConnection) {
        self.upstream = nil
        let reusable = responseHead?.keepAlive == true && !upstreamEOF && upstream.input.isEmpty
            && requestSide.isComplete && !bufferedBodyPending && upstream.output.isEmpty
        if reusable {
            upstream.pool.release(upstream)
        } else {
            upstream.owner = nil
            upstream.pool.discard(upstream)
        }
    }
}
