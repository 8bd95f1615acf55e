import GatehouseHTTP
import GatehouseIO

/// Getting an upstream connection, sending the request head and streaming the request body.
extension Exchange: UpstreamWaiter, UpstreamConnectionOwner {
    func acquireConnection(fresh: Bool) {
        guard let pool else { return }
        switch fresh ? pool.acquireFresh(for: self) : pool.acquire(for: self) {
        case .reused(let connection):
            attach(connection)
        case .connecting(let connection):
            attach(connection)
        case .queued:
            waitingForConnection = true
        case .failed(let failure):
            upstreamFailedToConnect(failure)
        }
    }

    func connectionAvailable(_ connection: UpstreamConnection) {
        guard !finished, waitingForConnection else {
            // Handed over after this exchange ended: give it back untouched.
            if connection.state == .idle { connection.pool.release(connection) } else { connection.pool.discard(connection) }
            return
        }
        waitingForConnection = false
        attach(connection)
    }

    func connectionFailed(_ failure: UpstreamFailure) {
        guard !finished, waitingForConnection else { return }
        waitingForConnection = false
        upstreamFailedToConnect(failure)
    }

    private func upstreamFailedToConnect(_ failure: UpstreamFailure) {
        if case .tls(let reason) = failure { return tlsFailed(reason) }
        if failure == .connectTimeout {
            fail(GatewayError(.upstreamTimeout, "The upstream did not accept the connection in time."), outcome: .timeout)
        } else {
            fail(GatewayError(.upstreamError(upstreamStatus: nil), "The upstream refused the connection."), outcome: .connect_error)
        }
    }

    /// Takes `connection` for this request and queues the head (and what body is already here).
    private func attach(_ connection: UpstreamConnection) {
        connection.lend(to: self)
        upstream = connection
        if let payload = retryPayload {
            retryPayload = nil
            connection.output.append(payload)
        } else {
            UpstreamRequestWriter.write(exchange: self, into: &connection.output)
            if let body = rewrite?.body { connection.output.append(body) }
            if let prebuffered = prebufferedBody {
                prebufferedBody = nil
                prebuffered.withUnsafeBytes { emitBody($0, chunked: true) }
            }
        }
        if wantsRequestBody {
            if head.expectContinue && !continueSent && bodyNotYetReceived {
                continueSent = true
                sendContinue()
            }
            pumpRequestBody()
        }
        if connection.state == .active {
            connection.flush()
            if upstream === connection { connection.updateInterest(wantRead: true) }
        }
    }

    private var bodyNotYetReceived: Bool {
        switch requestBody {
        case .length(let remaining): return connection.input.readableCount < remaining
        default: return true
        }
    }

    private func sendContinue() {
        connection.output.append("HTTP/1.1 100 Continue\r\n\r\n")
        connection.flushOutput()
    }

    // MARK: - Request body

    /// Moves request body bytes from the client's input to their destination (the upstream's
    /// output, or `collectedBody` while the operation policy waits for the whole body), as far
    /// as the upstream buffer allows, and adjusts both sides' interest (backpressure).
    func pumpRequestBody() {
        let collecting = collectedBody != nil
        guard collecting || upstream != nil else { return }
        pumping: while wantsRequestBody && !connection.input.isEmpty
                        && (collecting || upstream!.output.readableCount < Self.highWater) {
            switch requestBody {
            case .none:
                wantsRequestBody = false
                requestBodyDone = true
            case .length(let remaining):
                let n = min(remaining, connection.input.readableCount)
                if collecting && (collectedBody!.count + n > snapshot.maxBodyBytes) { return bodyTooLarge() }
                emitBody(UnsafeRawBufferPointer(rebasing: connection.input.readable[0..<n]), chunked: false)
                connection.input.consume(n)
                bytesIn += n
                requestBody = .length(remaining: remaining - n)
                if remaining == n {
                    wantsRequestBody = false
                    requestBodyDone = true
                }
            case .chunked(var decoder, let received):
                switch decoder.decode(connection.input.readable) {
                case .data(let range, let consumed):
                    let total = received + range.count
                    if total > snapshot.maxBodyBytes { return bodyTooLarge() }
                    emitBody(UnsafeRawBufferPointer(rebasing: connection.input.readable[range]), chunked: true)
                    connection.input.consume(consumed)
                    bytesIn += consumed
                    requestBody = .chunked(decoder, received: total)
                case .needMore(let consumed):
                    connection.input.consume(consumed)
                    bytesIn += consumed
                    requestBody = .chunked(decoder, received: received)
                    break pumping
                case .end(let consumed):
                    if !collecting { upstream!.output.append("0\r\n\r\n") }
                    connection.input.consume(consumed)
                    bytesIn += consumed
                    requestBody = .chunked(decoder, received: received)
                    wantsRequestBody = false
                    requestBodyDone = true
                case .invalid:
                    keepAlive = false
                    fail(GatewayError(.badRequest, "The chunked request body is malformed."), outcome: nil)
                    return
                }
            }
        }
        if collecting {
            if wantsRequestBody {
                if collectionPurpose == .buffering && collectedBody!.count >= Self.requestBufferLimit {
                    return bufferOverflowed()
                }
                connection.updateInterest()
            } else {
                bodyDeadline = 0
                bodyCollected()
            }
            return
        }
        guard let upstream else { return }
        if !wantsRequestBody { armDeadline() }
        if upstream.state == .active { upstream.flush() }
        if self.upstream === upstream { upstream.updateInterest(wantRead: true) }
        connection.updateInterest()
    }

    /// Body bytes to the collected body, or upstream (re-chunked when the client sent chunks).
    @inline(__always)
    func emitBody(_ bytes: UnsafeRawBufferPointer, chunked: Bool) {
        if collectedBody != nil {
            collectedBody!.append(contentsOf: bytes)
            return
        }
        guard let upstream else { return }
        if chunked {
            upstream.output.append(hex: bytes.count)
            upstream.output.append("\r\n")
            upstream.output.append(bytes)
            upstream.output.append("\r\n")
        } else {
            upstream.output.append(bytes)
        }
    }

    private func bodyTooLarge() {
        keepAlive = false
        collectedBody = nil
        fail(GatewayError(.payloadTooLarge, "The request body is larger than the gateway accepts."), outcome: nil)
    }

    // MARK: - Upstream events

    func upstreamConnected(_ connection: UpstreamConnection) {
        guard connection === upstream else { return }
        if !connection.flush() { return }
        // The body pump paused the client while the connect (and TLS handshake) ran.
        if wantsRequestBody { pumpRequestBody() } else if upstream === connection { connection.updateInterest(wantRead: true) }
        self.connection.updateInterest()
    }

    func upstreamWritable(_ connection: UpstreamConnection) {
        guard connection === upstream else { return }
        if !connection.flush() { return }
        if wantsRequestBody { pumpRequestBody() } else { connection.updateInterest(wantRead: true) }
        self.connection.updateInterest()
    }

    func upstreamFailed(_ connection: UpstreamConnection, _ failure: UpstreamFailure) {
        guard connection === upstream else { return }
        upstream = nil
        // SPEC §3.6: a pooled connection found dead before any byte was written is retried once,
        // on a new connection; nothing else is retried.
        if case .reset = failure, connection.isReused, connection.bytesWrittenForRequest == 0, !retried,
           responseHead == nil {
            retried = true
            retryPayload = Array(connection.output.readable)
            guard let pool else { return }
            switch pool.acquireFresh(for: self) {
            case .connecting(let fresh), .reused(let fresh):
                attach(fresh)
            case .queued:
                waitingForConnection = true
            case .failed(let failure):
                upstreamFailedToConnect(failure)
            }
            return
        }
        switch failure {
        case .connectTimeout, .refused:
            upstreamFailedToConnect(failure)
        case .reset, .closed:
            fail(GatewayError(.upstreamError(upstreamStatus: nil), "The upstream closed the connection unexpectedly."),
                 outcome: .reset)
        case .tls(let reason):
            tlsFailed(reason)
        }
    }

    /// Logged with the reason; the client's message says it was TLS.
    private func tlsFailed(_ reason: String) {
        let upstreamName = pool?.upstream.config.name ?? "?"
        ErrorLog.warn("upstream \(upstreamName): TLS failed: \(reason) (request \(requestID))")
        fail(GatewayError(.upstreamError(upstreamStatus: nil), "TLS with the upstream failed: \(reason)."),
             outcome: .connect_error)
    }

    func upstreamReadable(_ connection: UpstreamConnection) {
        guard connection === upstream else { return }
        if responseStarted && self.connection.output.readableCount >= Self.highWater {
            connection.updateInterest(wantRead: false)
            return
        }
        switch connection.readAvailable() {
        case .failure(let failure):
            connection.owner = nil
            connection.pool.discard(connection)
            upstreamFailed(connection, failure)
            return
        case .success(0):
            upstreamEOF = true
        case .success:
            break
        }
        processUpstreamInput(connection)
    }
}
