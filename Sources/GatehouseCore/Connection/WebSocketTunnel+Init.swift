import GatehouseHTTP
import GatehouseIO

/// `token_from: connection_init:FIELD` (README, "WebSocket"): after the gateway's own 101 the
/// tunnel reads the client's first message, has the route's auth verify the token in it, opens
/// the upstream WebSocket with the injected and claim headers, and only then relays — the
/// `connection_init` first, as the client sent it (re-masked like every client frame), then the
/// frames held meanwhile. `ConnectionInitGate` decides each step; this file carries them out.
extension WebSocketTunnel: UpstreamWaiter {
    /// The only answer that opens the upstream WebSocket (RFC 6455 §4.1).
    static let switchingProtocols = 101

    convenience init(connection: ClientConnection, awaitingInitOf exchange: Exchange, field: String,
                     route: CompiledRoute, upgrade: WebSocketUpgrade, now: UInt64) {
        let gate = ConnectionInitGate(field: field, subprotocol: upgrade.clientChoice, now: now,
                                      initTimeoutNanos: UInt64(upgrade.config.initTimeout.nanoseconds),
                                      upstreamTimeoutNanos: route.timeoutNanos)
        let progress = TunnelInitProgress(gate: gate, reader: ConnectionInitReader(maxMessageSize: upgrade.config.maxMessageSize),
                                          exchange: exchange)
        self.init(connection: connection, upstream: nil, route: route, upgrade: upgrade, state: .initialising(progress),
                  now: now, unixNow: 0)
    }

    func startInitialising(_ progress: TunnelInitProgress) {
        connection.flushOutput()  // the 101
        initClientReadable(progress)
    }

    /// Client bytes are held until the upstream is open: the first message, plus at most
    /// `max_message_size` more.
    func initWantsClientInput(_ progress: TunnelInitProgress) -> Bool {
        connection.input.readableCount < progress.reader.scanned + config.maxMessageSize
    }

    func initClientReadable(_ progress: TunnelInitProgress) {
        if progress.gate.awaitsMessage, !connection.input.isEmpty {
            let reading = progress.reader.read(connection.input.readable)
            perform(progress.gate.handle(.read(reading)), progress)
        }
        guard case .initialising = state else { return }
        armInitDeadline(progress)
        connection.updateInterest()
    }

    func initDeadlineReached(_ progress: TunnelInitProgress, now: UInt64) {
        perform(progress.gate.handle(.timerFired(now: now)), progress)
        if case .initialising = state { armInitDeadline(progress) }
    }

    private func armInitDeadline(_ progress: TunnelInitProgress) {
        let due = progress.gate.deadline
        connection.setDeadline(due != 0 ? due : deadlines.lifetime)
    }

    private func perform(_ action: ConnectionInitGate.Action, _ progress: TunnelInitProgress) {
        switch action {
        case .none: break
        case .verify(let token): verify(token, progress, mayWait: true)
        case .openUpstream: openUpstream(progress)
        case .relay: initPassed(progress)
        case .close(let code, let reason): close(code, reason: reason)
        }
    }

    // MARK: - The token

    /// The route's auth as for a header token; an unknown `kid` waits for the refetch it started
    /// (once), as the authentication phase does.
    private func verify(_ token: [UInt8], _ progress: TunnelInitProgress, mayWait: Bool) {
        let outcome = route.auth.authenticate(presentedToken: token, now: worker.unixSeconds, mayWait: mayWait,
                                              caches: worker.tokenCache)
        switch outcome {
        case .passed(let subject, let headerBlock, _, _, let validUntil):
            progress.exchange.connectionInitPassed(subject: subject, claimHeaderBlock: headerBlock, validUntil: validUntil)
            perform(progress.gate.handle(.tokenPassed(now: connection.loop.now)), progress)
        case .awaitingKeys(let source, let error, let reason):
            progress.keyWait = worker.keyWaits.wait(for: source, retry: { [unowned(unsafe) self, unowned(unsafe) progress] in
                progress.keyWait = nil
                verify(token, progress, mayWait: false)
                return .next
            })
            if progress.keyWait == nil { refused(error, reason, progress) }
        case .refused(let error, let reason):
            refused(error, reason, progress)
        }
    }

    private func refused(_ error: GatewayError, _ reason: AuthFailureCounter?, _ progress: TunnelInitProgress) {
        if let reason { worker.routeMetrics(for: route).authFailures.add(reason.index) }
        let label = reason.map { AuthFailureLabel.allCases[$0.index] }
        perform(progress.gate.handle(.tokenRefused(ConnectionInitGate.Refusal(kind: error.kind, reason: label))), progress)
    }

    // MARK: - The upstream handshake

    private func openUpstream(_ progress: TunnelInitProgress) {
        guard let pool = worker.endpointGroup(for: route.upstreamIndex).pick(now: connection.loop.now) else {
            return perform(progress.gate.handle(.upstreamFailed), progress)
        }
        progress.pool = pool
        progress.exchange.timing.upstreamStarted = connection.loop.now
        armInitDeadline(progress)
        // A fresh connection: it turns into a WebSocket and never returns to the pool.
        switch pool.acquireFresh(for: self) {
        case .reused(let upstream), .connecting(let upstream): attachUpstream(upstream, progress)
        case .queued: progress.poolWait = pool
        case .failed: upstreamHandshakeFailed(progress)
        }
    }

    func connectionAvailable(_ connection: UpstreamConnection) {
        guard case .initialising(let progress) = state, progress.poolWait != nil else {
            if connection.state == .idle { connection.pool.release(connection) } else { connection.pool.discard(connection) }
            return
        }
        progress.poolWait = nil
        attachUpstream(connection, progress)
    }

    func connectionFailed(_ failure: UpstreamFailure) {
        guard case .initialising(let progress) = state, progress.poolWait != nil else { return }
        progress.poolWait = nil
        upstreamHandshakeFailed(progress)
    }

    private func attachUpstream(_ connection: UpstreamConnection, _ progress: TunnelInitProgress) {
        connection.lend(to: self)
        upstream = connection
        UpstreamRequestWriter.write(exchange: progress.exchange, into: &connection.output)
        if connection.state == .active { sendUpstreamHandshake(connection) }
    }

    func sendUpstreamHandshake(_ connection: UpstreamConnection) {
        guard connection.flush() else { return }  // a failure comes back as `upstreamFailed`
        connection.updateInterest(wantRead: true)
    }

    func upstreamHandshakeReadable(_ upstream: UpstreamConnection, _ progress: TunnelInitProgress) {
        let ended: Bool
        switch upstream.readAvailable() {
        case .failure: return upstreamHandshakeFailed(progress)
        case .success(0): ended = true
        case .success: ended = false
        }
        switch ResponseHeadParser().parse(upstream.input.readable, requestMethod: .get, scanned: &progress.responseScanned) {
        case .incomplete:
            if ended { upstreamHandshakeFailed(progress) }
        case .invalid:
            upstreamHandshakeFailed(progress)
        case .complete(let response, let consumed):
            upstream.input.consume(consumed)
            progress.exchange.upstreamStatus = response.status
            guard response.status == Self.switchingProtocols, let upgrade = progress.exchange.webSocket,
                  upgrade.answer(of: response) == .accepted(subprotocol: upgrade.clientChoice) else {
                progress.pool?.metrics.record(.bad_response)
                return upstreamHandshakeFailed(progress)
            }
            perform(progress.gate.handle(.upstreamOpened), progress)
        }
    }

    func upstreamHandshakeFailed(_ progress: TunnelInitProgress) {
        perform(progress.gate.handle(.upstreamFailed), progress)
    }

    // MARK: - Passing and leaving

    /// The upstream answered 101: logged like a header-authenticated tunnel, then the held frames
    /// (the `connection_init` first) go up and relaying starts.
    private func initPassed(_ progress: TunnelInitProgress) {
        let exchange = progress.exchange
        progress.pool?.metrics.record(.success)
        exchange.timing.upstreamFinished = connection.loop.now
        exchange.record()
        if let upgrade = exchange.webSocket {
            deadlines.credentials = Self.expiry(of: upgrade, now: connection.loop.now, unixNow: worker.unixSeconds)
        }
        deadlines.activity(now: connection.loop.now)
        state = .open
        beginRelaying()
    }

    /// The tunnel ends before its upstream opened (a refusal, the client gone, a drain): whatever
    /// it waited in lets go, an upstream connection still in its handshake is closed, and the
    /// handshake is logged with what ended it.
    func abandonInit(_ progress: TunnelInitProgress, code: UInt16) {
        progress.keyWait?.cancel()
        progress.keyWait = nil
        if let pool = progress.poolWait { pool.cancelWait(self) }
        progress.poolWait = nil
        releaseUpstream()
        let exchange = progress.exchange
        if let kind = ConnectionInitGate.errorKind(closingWith: code) {
            exchange.errorCode = ErrorEnvelope.mapping(for: kind).code.description
        }
        exchange.record()
    }
}
