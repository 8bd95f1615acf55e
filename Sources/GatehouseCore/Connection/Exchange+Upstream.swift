import GatehouseHTTP
import GatehouseIO

/// Taking an upstream connection, sending the request and hearing the upstream's events.
extension Exchange: UpstreamWaiter, UpstreamConnectionOwner {
    /// After the last phase: the request goes to the route's upstream. The route timeout runs
    /// from here and covers connect, send, wait and the whole response.
    func forward() {
        guard let route else { return }
        timing.upstreamStarted = loop.now
        deadlines.route = loop.now + route.timeoutNanos
        guard takeEndpoint(of: worker.endpointGroup(for: route.upstreamIndex)) != nil else { return }
        stage = .connecting
        if case .unread = requestSide { startReadingBody(streaming: true) } else { armDeadline() }
        acquireConnection(fresh: false)
    }

    func acquireConnection(fresh: Bool) {
        guard let pool else { return }
        switch fresh ? pool.acquireFresh(for: self) : pool.acquire(for: self) {
        case .reused(let connection), .connecting(let connection):
            attach(connection)
        case .queued:
            if refuseIfPendingFull(pool) { return }
            armDeadline()
        case .failed(let failure):
            if retryElsewhere(.connect, connection: nil) { return }
            upstreamFailedToConnect(failure)
        }
    }

    func connectionAvailable(_ connection: UpstreamConnection) {
        guard waitingForPool else {
            // Handed over after this exchange ended: give it back untouched.
            if connection.state == .idle { connection.pool.release(connection) } else { connection.pool.discard(connection) }
            return
        }
        attach(connection)
    }

    func connectionFailed(_ failure: UpstreamFailure) {
        guard waitingForPool else { return }
        if retryElsewhere(.connect, connection: nil) { return }
        upstreamFailedToConnect(failure)
    }

    private func upstreamFailedToConnect(_ failure: UpstreamFailure) {
        switch failure {
        case .tls(let reason):
            tlsFailed(reason)
        case .connectTimeout:
            fail(GatewayError(.upstreamTimeout, "The upstream did not accept the connection in time.",
                              source: .upstream, retry: .safe),
                 outcome: .timeout)
        default:
            fail(GatewayError(.upstreamError(upstreamStatus: nil), "The upstream refused the connection.",
                              source: .upstream, retry: .safe),
                 outcome: .connect_error)
        }
    }

    /// Takes `connection` for this request and queues the head and what of the body is here.
    private func attach(_ connection: UpstreamConnection) {
        connection.lend(to: self)
        upstream = connection
        stage = .forwarding
        if let payload = retryPayload {
            retryPayload = nil
            connection.output.append(payload)
        } else {
            writeFreshRequest(on: connection)
        }
        if sendBufferedBody(to: connection), case .streaming = requestSide {
            sendContinueIfWanted()
            pumpRequestBody()
        }
        armDeadline()
        if connection.state == .active {
            guard writeRequest(on: connection) else { return }
            if upstream === connection { connection.updateInterest(wantRead: true) }
        }
    }

    /// Writes what is queued and keeps queueing the buffered body while the socket takes it.
    /// False when the write failed (the failure has been reported).
    private func writeRequest(on connection: UpstreamConnection) -> Bool {
        while true {
            guard connection.flush() else { return false }
            guard connection.output.isEmpty, bufferedBodyPending else { return true }
            sendBufferedBody(to: connection)
        }
    }

    /// The body that goes out with the head: the one the policy wrote, or the client's as it
    /// lies in the input (a rewritten request drops it from there).
    func queueBody(on upstream: UpstreamConnection) {
        let replaced = rewrite?.body != nil || rewrite?.dropsBody == true
        if let rewritten = rewrite?.body { upstream.output.append(rewritten) }
        switch body {
        case .input(let length):
            if !replaced {
                upstream.output.append(UnsafeRawBufferPointer(rebasing: connection.input.readable[0..<length]))
            }
            connection.input.consume(length)
            bytesIn += length
            body = .none
        case .buffer where replaced:
            body = .none
        case .buffer, .none:
            break  // a buffered body follows the head as the socket takes it
        }
    }

    // MARK: - Upstream events

    func upstreamConnected(_ connection: UpstreamConnection) {
        guard connection === upstream else { return }
        if !writeRequest(on: connection) { return }
        // The body pump paused the client while the connect (and TLS handshake) ran.
        if case .streaming = requestSide { pumpRequestBody() } else { connection.updateInterest(wantRead: true) }
        self.connection.updateInterest()
    }

    func upstreamWritable(_ connection: UpstreamConnection) {
        guard connection === upstream else { return }
        if !writeRequest(on: connection) { return }
        if case .streaming = requestSide { pumpRequestBody() } else { connection.updateInterest(wantRead: true) }
        self.connection.updateInterest()
    }

    func upstreamFailed(_ connection: UpstreamConnection, _ failure: UpstreamFailure) {
        guard connection === upstream else { return }
        upstream = nil
        // A pooled connection found dead before any byte was written is retried once, on a
        // new connection; nothing else is retried.
        if case .reset = failure, connection.isReused, connection.bytesWrittenForRequest == 0, retries == 0,
           !hasResponseHead {
            retries += 1
            retryPayload = Array(connection.output.readable)
            stage = .connecting
            return acquireConnection(fresh: true)
        }
        if retryElsewhere(failure.retryCondition, connection: connection) { return }
        switch failure {
        case .connectTimeout, .refused:
            upstreamFailedToConnect(failure)
        case .reset, .closed:
            fail(GatewayError(.upstreamError(upstreamStatus: nil), "The upstream closed the connection unexpectedly.",
                              source: .upstream),
                 outcome: .reset)
        case .tls(let reason):
            tlsFailed(reason)
        }
    }

    /// Logged with the reason; the client's message says it was TLS.
    private func tlsFailed(_ reason: String) {
        let upstreamName = pool?.upstream.config.name ?? "?"
        ErrorLog.warn("upstream \(upstreamName): TLS failed: \(reason) (request \(requestID))")
        fail(GatewayError(.upstreamError(upstreamStatus: nil), "TLS with the upstream failed: \(reason).",
                          source: .upstream),
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
