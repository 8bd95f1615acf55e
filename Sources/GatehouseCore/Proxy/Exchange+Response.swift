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
        ResponseHeadWriter.write(response, exchange: self, keepAlive: keepAlive && !worker.isDraining,
                                 into: &connection.output)
        responseStarted = true
        return true
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
