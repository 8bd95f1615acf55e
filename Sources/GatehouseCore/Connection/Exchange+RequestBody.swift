import GatehouseHTTP
import GatehouseIO

/// Reading the request body from the client: whole into a `RequestBodyBuffer` before the
/// upstream is taken, or streamed to the upstream with backpressure on routes with
/// `request_buffering: false`.
extension Exchange {
    /// A Content-Length body that is all here already is taken as it lies in the input.
    func takeBodyFromInputIfComplete() -> Bool {
        guard case .unread(.length(let length)) = requestSide, connection.input.readableCount >= length else {
            return false
        }
        requestSide = .complete
        body = .input(length: length)
        return true
    }

    /// Gives `body` (nil when there is none) to `work`, wherever the body lies.
    func withBody<T>(_ work: (UnsafeRawBufferPointer?) -> T) -> T {
        switch body {
        case .none:
            return work(nil)
        case .input(let length):
            return work(UnsafeRawBufferPointer(rebasing: connection.input.readable[0..<length]))
        case .buffer(let buffer, _):
            return buffer.bytes().withUnsafeBytes { work($0) }
        }
    }

    /// Starts reading the body: into a buffer (a phase waits for it) or towards the upstream.
    func startReadingBody(streaming: Bool) {
        guard case .unread(let framing) = requestSide else { return }
        if streaming {
            requestSide = .streaming(framing)
            if snapshot.minBodyRate > 0 {
                bodyRate = BodyRateMeter(minimumRate: snapshot.minBodyRate)
                deadlines.bodyRate = loop.now + BodyRateMeter.tickNanos
            }
        } else {
            requestSide = .buffering(framing)
            // An upload's preamble is held by its `UploadStream`, never the whole body.
            if upload == nil {
                body = .buffer(RequestBodyBuffer(memoryLimit: snapshot.requestBufferBytes, directory: snapshot.tempDirectory),
                               sent: 0)
            }
            sendContinueIfWanted()
        }
        if snapshot.bodyTimeoutNanos > 0 { deadlines.body = loop.now + snapshot.bodyTimeoutNanos }
        armDeadline()
        pumpRequestBody()
    }

    /// `Expect: 100-continue` is answered when the gateway starts reading a body that has not
    /// arrived yet (a client that sent it anyway needs no invitation).
    func sendContinueIfWanted() {
        guard expectation == .wanted else { return }
        if case .length(let remaining) = currentFraming, connection.input.readableCount >= remaining { return }
        expectation = .sent
        connection.output.append("HTTP/1.1 100 Continue\r\n\r\n")
        connection.flushOutput()
    }

    private var currentFraming: BodyFraming? {
        switch requestSide {
        case .unread(let framing), .buffering(let framing), .streaming(let framing): return framing
        case .complete: return nil
        }
    }

    /// Moves body bytes from the client's input to their destination, as far as the upstream's
    /// buffer allows when streaming, and adjusts both sides' interest (backpressure).
    func pumpRequestBody() {
        let streaming: Bool
        var framing: BodyFraming
        switch requestSide {
        case .buffering(let current): framing = current; streaming = false
        case .streaming(let current): framing = current; streaming = true
        case .complete, .unread: return
        }
        if streaming && upstream == nil { return }
        var finished = false
        pumping: while !connection.input.isEmpty && (!streaming || upstream!.output.readableCount < Self.highWater)
                        && !uploadPreambleRead {
            switch framing {
            case .length(let remaining):
                let n = min(remaining, connection.input.readableCount)
                guard emit(UnsafeRawBufferPointer(rebasing: connection.input.readable[0..<n]), chunked: false,
                           last: remaining == n) else { return }
                connection.input.consume(n)
                bytesIn += n
                framing = .length(remaining: remaining - n)
                if remaining == n {
                    finished = true
                    break pumping
                }
            case .chunked(var decoder, let received):
                switch decoder.decode(connection.input.readable) {
                case .data(let range, let consumed):
                    let total = received + range.count
                    if total > maxBodyBytes { return bodyTooLarge() }
                    guard emit(UnsafeRawBufferPointer(rebasing: connection.input.readable[range]), chunked: true,
                               last: false) else { return }
                    connection.input.consume(consumed)
                    bytesIn += consumed
                    framing = .chunked(decoder, received: total)
                case .needMore(let consumed):
                    connection.input.consume(consumed)
                    bytesIn += consumed
                    framing = .chunked(decoder, received: received)
                    break pumping
                case .end(let consumed):
                    guard inspectUploadEnd() else { return }
                    if streaming { upstream!.output.append(ChunkedEncoder.lastChunk) }
                    connection.input.consume(consumed)
                    bytesIn += consumed
                    finished = true
                    break pumping
                case .invalid:
                    keepAlive = false
                    return fail(GatewayError(.badRequest, "The chunked request body is malformed."))
                }
            }
        }
        if finished {
            requestSide = .complete
            deadlines.body = 0
            deadlines.bodyRate = 0
        } else {
            requestSide = streaming ? .streaming(framing) : .buffering(framing)
        }
        if !streaming {
            if finished || uploadPreambleRead { return bodyBuffered() }
            connection.updateInterest()
            return
        }
        guard let upstream else { return }
        if finished { armDeadline() }
        if upstream.state == .active { upstream.flush() }
        if self.upstream === upstream { upstream.updateInterest(wantRead: true) }
        connection.updateInterest()
    }

    /// Body bytes to the buffer, or to the upstream (re-chunked when the client sent chunks), an
    /// upload's once its checks passed. False when the exchange failed (the buffer could not
    /// spool, or the upload was refused).
    @inline(__always)
    private func emit(_ bytes: UnsafeRawBufferPointer, chunked: Bool, last: Bool) -> Bool {
        bodyRate?.record(bytes.count)
        guard inspectUpload(bytes, last: last) else { return false }
        if case .buffer(let buffer, _) = body, isCollectingBody {
            do {
                try buffer.append(bytes)
            } catch {
                ErrorLog.warn("request \(requestID): cannot spool the request body to \(snapshot.tempDirectory): \(error)")
                keepAlive = false
                fail(GatewayError(.internalError, "The request body could not be buffered.", source: .internal))
                return false
            }
            return true
        }
        guard let upstream else { return true }
        if chunked {
            upstream.output.appendChunk(bytes)
        } else {
            upstream.output.append(bytes)
        }
        return true
    }

    private func bodyTooLarge() {
        keepAlive = false
        fail(GatewayError(.payloadTooLarge, "The request body is larger than the gateway accepts."))
    }

    /// `max_body_bytes`: the route's when it sets one (larger or smaller), else the server's.
    var maxBodyBytes: Int { route?.bodyLimit(server: snapshot.maxBodyBytes) ?? snapshot.maxBodyBytes }

    /// Queues what is left of a buffered body towards the upstream, as far as its buffer allows.
    /// Returns true when all of it is queued.
    @discardableResult
    func sendBufferedBody(to upstream: UpstreamConnection) -> Bool {
        guard case .buffer(let buffer, let sent) = body else { return true }
        var offset = sent
        while offset < buffer.count && upstream.output.readableCount < Self.highWater {
            let n = buffer.copy(from: offset, limit: Self.highWater - upstream.output.readableCount, into: &upstream.output)
            if n == 0 { break }
            offset += n
        }
        body = .buffer(buffer, sent: offset)
        return offset >= buffer.count
    }

    /// Bytes of the body that still wait to be queued towards the upstream.
    var bufferedBodyPending: Bool {
        if case .buffer(let buffer, let sent) = body { return sent < buffer.count }
        return false
    }

    /// The body length the upstream is told (a buffered body's, or the client's Content-Length).
    var forwardedBodyLength: Int? {
        switch body {
        case .input(let length): return length
        case .buffer(let buffer, _): return buffer.count
        case .none: return nil
        }
    }
}

extension ByteBuffer {
    /// Appends `bytes` as one chunk of the chunked transfer coding (nothing for no bytes: a
    /// zero-size chunk would end the body).
    @inline(__always)
    mutating func appendChunk(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        append(hex: bytes.count)
        append("\r\n")
        append(bytes)
        append(ChunkedEncoder.chunkTrailer)
    }
}
