import GatehouseHTTP
import GatehouseIO

/// Reading the upstream response, mapping failures into envelopes and streaming the body back.
extension Exchange {
    func processUpstreamInput(_ upstream: UpstreamConnection) {
        while responseHead == nil {
            let parser = ResponseHeadParser()
            switch parser.parse(upstream.input.readable, requestMethod: head.methodKind, scanned: &responseScanned) {
            case .incomplete:
                if upstreamEOF {
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
                        fail(GatewayError(.upstreamError(upstreamStatus: 101), "The upstream switched protocols unexpectedly."),
                             outcome: .bad_response)
                        return
                    }
                    continue  // 100 Continue, 103 Early Hints: skipped
                }
                if !handleResponseHead(response, upstream) { return }
            }
        }
        if holdingForClassification && !releaseHeldResponse(upstream) { return }
        pumpResponseBody(upstream)
    }

    /// Either maps the response to an envelope (returns false) or starts it towards the client.
    private func handleResponseHead(_ response: ResponseHead, _ upstream: UpstreamConnection) -> Bool {
        upstreamStatus = response.status
        pool?.metrics.record(.success)
        if let error = UpstreamErrorMapping.error(for: response) {
            upstreamFinishedAt = loop.now
            dropUpstream()  // its body is not wanted; the connection cannot be reused
            respond(error)
            return false
        }
        responseHead = response
        status = response.status
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
            fail(GatewayError(.upstreamError(upstreamStatus: response.status), "The upstream sent a malformed body."),
                 outcome: .bad_response)
            return false
        }
        if route?.mapGraphQLErrors == true && response.status / 100 == 2 && response.framing != .none
            && UpstreamErrorMapping.hasJSONBody(response) {
            holdingForClassification = true
            return true
        }
        writeResponseHead(response)
        return true
    }

    private func writeResponseHead(_ response: ResponseHead) {
        ResponseHeadWriter.write(response, exchange: self, keepAlive: keepAlive && !worker.isDraining,
                                 into: &connection.output)
        responseStarted = true
    }

    // MARK: - map_graphql_errors

    /// Holds the response until its body is complete (or too large to be only an error), then
    /// either answers with the 401/403 envelope or lets the response through. Returns true when
    /// the response may stream on.
    private func releaseHeldResponse(_ upstream: UpstreamConnection) -> Bool {
        let held = upstream.input.readable
        let limit = GraphQLErrorClassifier.maxBodyBytes
        var body: [UInt8]?
        var giveUp = false
        switch responseBody {
        case .none:
            body = []
        case .length(let length):
            if length > limit { giveUp = true } else if held.count >= length { body = Array(held[0..<length]) }
        case .chunked:
            switch Self.dechunk(held, limit: limit) {
            case .complete(let data): body = data
            case .incomplete: break
            case .unusable: giveUp = true
            }
        case .untilClose:
            if upstreamEOF { body = Array(held) } else if held.count > limit { giveUp = true }
        }
        if body == nil && !giveUp {
            if !upstreamEOF && held.count <= limit + 16 * 1024 { return false }  // wait for the rest
            giveUp = true
        }
        if let body, let refusal = body.withUnsafeBytes({ GraphQLErrorClassifier.classify($0) }) {
            upstreamFinishedAt = loop.now
            dropUpstream()
            switch refusal {
            case .unauthenticated:
                respond(GatewayError(.unauthenticated, "The upstream refused the credentials.", source: .upstream))
            case .forbidden:
                respond(GatewayError(.forbidden, "The upstream refused access.", source: .upstream))
            }
            return false
        }
        holdingForClassification = false
        if let response = responseHead { writeResponseHead(response) }
        return true
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

    private enum Dechunked {
        case complete([UInt8])
        case incomplete
        case unusable
    }

    /// The data of a chunked body held in full, without consuming it.
    private static func dechunk(_ held: UnsafeRawBufferPointer, limit: Int) -> Dechunked {
        var decoder = ChunkedDecoder()
        var data: [UInt8] = []
        var offset = 0
        while offset < held.count {
            let rest = UnsafeRawBufferPointer(rebasing: held[offset...])
            switch decoder.decode(rest) {
            case .data(let range, let consumed):
                data.append(contentsOf: rest[range])
                if data.count > limit { return .unusable }
                offset += consumed
            case .needMore(let consumed):
                offset += consumed
                return .incomplete
            case .end:
                return .complete(data)
            case .invalid:
                return .unusable
            }
        }
        return .incomplete
    }

    private func pumpResponseBody(_ upstream: UpstreamConnection) {
        let output = connection
        copying: while !responseComplete && output.output.readableCount < Self.highWater {
            switch responseBody {
            case .none:
                responseComplete = true
            case .length(let remaining):
                if upstream.input.isEmpty { break copying }
                let n = min(remaining, upstream.input.readableCount)
                output.output.append(UnsafeRawBufferPointer(rebasing: upstream.input.readable[0..<n]))
                upstream.input.consume(n)
                responseBody = .length(remaining: remaining - n)
                if remaining == n { responseComplete = true }
            case .chunked(var decoder, let verbatim):
                if upstream.input.isEmpty { break copying }
                let readable = upstream.input.readable
                switch decoder.decode(readable) {
                case .data(let range, let consumed):
                    output.output.append(UnsafeRawBufferPointer(rebasing: readable[verbatim ? 0..<consumed : range]))
                    upstream.input.consume(consumed)
                case .needMore(let consumed):
                    if verbatim { output.output.append(UnsafeRawBufferPointer(rebasing: readable[0..<consumed])) }
                    upstream.input.consume(consumed)
                    responseBody = .chunked(decoder, verbatim: verbatim)
                    break copying
                case .end(let consumed):
                    if verbatim { output.output.append(UnsafeRawBufferPointer(rebasing: readable[0..<consumed])) }
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
                output.output.append(upstream.input.readable)
                upstream.input.consume(upstream.input.readableCount)
            }
        }
        if !responseComplete && upstreamEOF && upstream.input.isEmpty {
            // Truncated: the client has a partial response; it must not take it for a whole one.
            fail(GatewayError(.upstreamError(upstreamStatus: upstreamStatus), "The upstream response was truncated."),
                 outcome: .reset)
            return
        }
        if responseComplete {
            upstreamFinishedAt = loop.now
            releaseUpstream(upstream)
        } else {
            upstream.updateInterest(wantRead: output.output.readableCount < Self.highWater)
        }
        output.flushOutput()
    }

    /// Back to the pool when the exchange ended cleanly; otherwise closed. Bytes after the end of
    /// the response mean the framing cannot be trusted (response-queue poisoning): never reuse.
    private func releaseUpstream(_ upstream: UpstreamConnection) {
        self.upstream = nil
        let reusable = responseHead?.keepAlive == true && !upstreamEOF && upstream.input.isEmpty
            && !wantsRequestBody && upstream.output.isEmpty
        if reusable {
            upstream.pool.release(upstream)
        } else {
            upstream.owner = nil
            upstream.pool.discard(upstream)
        }
    }
}
