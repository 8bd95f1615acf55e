import GatehouseHTTP
import GatehouseIO
import Glibc

/// One client connection: the I/O shell around `ConnectionMachine`. It reads, writes and arms
/// the timer; every decision about what happens next is the machine's (`perform(_:)` carries
/// out its steps). Requests are answered one at a time by an `Exchange`; pipelined requests wait
/// in `input` and are answered in order.
final class ClientConnection: IOHandler, TimerTarget {
    /// Strong, though the worker outlives its connections: a `let` the connection holds is read
    /// without a retain, where an unowned one is retained on every use (each request reads it
    /// many times). The worker drops its connections when they close, so nothing cycles.
    let worker: Worker
    let fd: Int32
    let stream: SocketStream
    private var token: UInt64 = 0
    let client: ClientAddress
    private(set) var machine: ConnectionMachine
    private var interest: EventSet = []
    /// Plain sockets are watched edge-triggered (a ready socket is polled once per event, not
    /// again on the next wait), TLS ones level-triggered (`EdgeTriggeredInput`).
    private var edge: EdgeTriggeredInput
    /// Both buffers are released while the connection is idle, so an idle keep-alive
    /// connection costs little more than this object.
    var input = ByteBuffer(capacity: 0)
    var output = ByteBuffer(capacity: 0)
    /// How far the head parser has looked into `input` (it resumes there).
    var scanned = 0
    /// The parser's error for a refused head, held until the machine says to write it.
    private var headRefusal: GatewayError?
    var deadline: UInt64 = 0
    var scheduledDeadline: UInt64 = 0
    /// When the first byte of the current head was read (monotonic ns), for the access log.
    private(set) var headStartedAt: UInt64 = 0
    /// The request in flight, if any.
    var exchange: Exchange?
    /// After a WebSocket upgrade: the tunnel that owns the connection (`tunnel` mode).
    var tunnel: WebSocketTunnel?

    var loop: EventLoop { worker.loop }

    init(worker: Worker, fd: Int32, tls: TLSConnection?, client: ClientAddress) {
        self.worker = worker
        self.fd = fd
        stream = SocketStream(fd: fd, tls: tls)
        edge = EdgeTriggeredInput(edgeTriggered: tls == nil)
        self.client = client
        let snapshot = worker.snapshot
        machine = ConnectionMachine(timeouts: .init(header: snapshot.headerTimeoutNanos, idle: snapshot.idleTimeoutNanos))
    }

    var isTLS: Bool { stream.tls != nil }
    var isIdle: Bool { machine.isIdle }

    func start() {
        token = loop.register(fd, edge.watch(.readable), handler: self)
        interest = .readable
        perform(machine.handle(.opened(tls: isTLS, now: loop.now)))
    }

    // MARK: - Performing the machine's steps

    /// Applies the timer change, then does what the machine asked.
    func perform(_ step: ConnectionMachine.Step) {
        switch step.timer {
        case .keep: break
        case .set(let at): setDeadline(at)
        case .clear: deadline = 0
        }
        switch step.action {
        case .none:
            break
        case .continueHandshake:
            continueHandshake()
        case .parseHead:
            parseHead()
        case .parseHeadLater:
            updateInterest()
            loop.defer_ { [self] in
                if case .readingHead = machine.state { parseHead() }
            }
        case .startExchange:
            break  // `parseHead` starts it with the parsed head in hand
        case .refuse(.malformedHead):
            refuse(headRefusal.take() ?? GatewayError(.badRequest, "The request head is malformed."))
        case .refuse(.headTimedOut):
            refuse(GatewayError(.requestTimeout, "The request head was not received in time."))
        case .exchangeDeadline(let now):
            if let exchange {
                exchange.deadlineReached(now: now)
            } else if let tunnel {
                tunnel.deadlineReached(now: now)
            } else {
                close()
            }
        case .updateInterest:
            updateInterest()
        case .releaseBuffers:
            scanned = 0
            worker.buffers.recycle(&input)
            worker.buffers.recycle(&output)
            updateInterest()
        case .linger:
            startLingering()
        case .close:
            closeSocket(reset: false)
        case .abort:
            closeSocket(reset: true)
        }
    }

    /// A failed handshake (a plain-HTTP request on the TLS port, an untrusted client
    /// certificate) closes the connection without a response: there is no channel to answer on.
    private func continueHandshake() {
        guard let tls = stream.tls else { return }
        switch tls.handshake() {
        case .done:
            perform(machine.handle(.handshakeFinished(now: loop.now)))
        case .wantRead:
            setInterest(.readable)
        case .wantWrite:
            setInterest(.writable)
        case .failed:
            perform(machine.handle(.handshakeFailed))
        }
    }

    // MARK: - Events

    func handleEvents(_ events: EventSet) {
        if machine.state == .handshaking { return continueHandshake() }
        edge.noteEvents(events)
        if events.contains(.writable) {
            flushOutput()
        }
        if !machine.isClosed && (events.contains(.readable) || events.contains(.hangup) || events.contains(.error)) {
            readable()
            readOnWhileInputMayRemain()
        }
    }

    /// Edge-triggered, a read that filled its room is followed by another once what it brought
    /// was handled, where a level-triggered socket would be reported again by the next wait: in
    /// user space, without asking epoll, a few times per event (`EdgeTriggeredInput`).
    private func readOnWhileInputMayRemain() {
        var reads = 0
        while edge.takeMayRemain() {
            guard !machine.isClosed, interest.contains(.readable), reads < EdgeTriggeredInput.readsPerEvent else {
                return lookAgainForInput()
            }
            reads += 1
            readable()
        }
    }

    private func readable() {
        switch machine.state {
        case .idle, .readingHead:
            guard readIntoInput() else { return }
            if !input.isEmpty {
                if machine.state == .idle { headStartedAt = loop.now }
                perform(machine.handle(.bytesArrived(now: loop.now)))
            }
        case .exchanging:
            if let tunnel {
                guard readIntoInput() else { return }
                return tunnel.clientReadable()
            }
            guard let exchange else { return }
            // Body bytes for the exchange, or early pipelined bytes (bounded by the interest)
            // and end of stream, which aborts an exchange still reading its request.
            guard readIntoInput() else { return }
            if exchange.wantsRequestBody { exchange.pumpRequestBody() }
        case .lingering:
            discardInput()
        case .handshaking, .refusing, .closed:
            return
        }
    }

    /// Reads what the socket has into `input`. Returns false at end of stream or on an error,
    /// after telling the machine. A plain read that comes back short has drained the socket,
    /// unless the peer's close came with the bytes; one that fills its room may have left bytes:
    /// the edge-triggered watch will not report either again (`EdgeTriggeredInput`).
    @discardableResult
    func readIntoInput() -> Bool {
        worker.buffers.fill(&input)
        repeat {
            input.reserveTail(Self.readChunk)
            let room = input.tailSpace
            switch stream.read(into: input.tail, count: room) {
            case .done(0):
                let complete = exchange.map { !$0.wantsRequestBody && !$0.isCollectingBody } ?? false
                perform(machine.handle(.peerClosed(requestComplete: complete)))
                return false
            case .done(let n):
                input.commit(n)
                if edge.readReturned(n, room: room) { lookAgainForInput() }
            case .wouldBlock:
                return true
            case .failed:
                perform(machine.handle(.ioFailed))
                return false
            }
        } while stream.hasBufferedInput
        return true
    }

    /// Bytes or the end of input may be left in the socket: epoll re-checks it when asked
    /// (`modify`) and reports it again if so, as a level-triggered watch would on its own. While
    /// input is not wanted there is nothing to ask: the change that wants it re-checks as well.
    private func lookAgainForInput() {
        guard edge.isOn, !machine.isClosed, interest.contains(.readable) else { return }
        loop.modify(fd, edge.watch(interest), token: token)
    }

    /// The least room a read is given; the pooled buffers are larger.
    private static let readChunk = 2048

    private func discardInput() {
        var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while !machine.isClosed {
            let result = withUnsafeMutableBytes(of: &scratch) { stream.read(into: $0.baseAddress!, count: $0.count) }
            switch result {
            case .done(0), .failed:
                perform(machine.handle(.ioFailed))
            case .done:
                continue
            case .wouldBlock:
                return
            }
        }
    }

    // MARK: - Heads

    /// Parses the next request head from `input` and starts its exchange.
    private func parseHead() {
        let snapshot = worker.snapshot
        let parser = RequestHeadParser(limits: snapshot.limits)
        switch parser.parse(input.readable, scanned: &scanned) {
        case .incomplete:
            perform(machine.handle(.headIncomplete))
        case .invalid(let error):
            headRefusal = GatewayError(parsing: error)
            perform(machine.handle(.headRefused(now: loop.now)))
        case .complete(let head, let consumed):
            input.consume(consumed)
            scanned = 0
            worker.buffers.fill(&output)
            perform(machine.handle(.headParsed))
            // The head's last use is the exchange's init, which takes it over.
            let requestID = worker.requestID(for: head)
            let exchange = Exchange(connection: self, head: head, snapshot: snapshot, requestID: requestID,
                                    headBytes: consumed, startedAt: headStartedAt)
            self.exchange = exchange
            exchange.run()
        }
    }

    /// Answers a request that never became an exchange (unparseable head, head timeout). The
    /// connection closes after it: after such a failure the stream's framing cannot be trusted.
    private func refuse(_ error: GatewayError) {
        worker.buffers.fill(&output)
        // A refused HEAD request gets no body, or the client would read it as a next response.
        let headRequest = input.readableCount >= 5 && memcmp(input.readable.baseAddress!, "HEAD ", 5) == 0
        input.clear()
        let requestID = worker.makeRequestID()
        ErrorEnvelope.render(error, requestID: requestID, keepAlive: false, headRequest: headRequest, into: &output)
        let mapping = ErrorEnvelope.mapping(for: error.kind)
        let durationNanos = headStartedAt != 0 ? loop.now - headStartedAt : 0
        worker.record(route: nil, status: mapping.status, durationNanos: durationNanos) {
            RequestRecord(
                requestID: requestID, method: UnsafeRawBufferPointer(start: nil, count: 0),
                path: UnsafeRawBufferPointer(start: nil, count: 0), route: nil, status: mapping.status,
                upstreamStatus: nil, durationNanos: durationNanos, upstreamNanos: nil,
                bytesIn: 0, bytesOut: output.readableCount, client: client.text, errorCode: mapping.code.description,
                subject: nil)
        }
        flushOutput()
    }

    // MARK: - Writing

    /// Writes as much of `output` as the socket takes; tells the exchange, or the machine, once
    /// everything is out.
    func flushOutput() {
        guard case .drained = writeOutput() else { return }
        if let exchange {
            exchange.clientDrained()
        } else if let tunnel {
            tunnel.clientDrained()
        } else {
            perform(machine.handle(.outputDrained(now: loop.now)))
        }
    }

    enum OutputWrite {
        case drained
        /// The socket took less: the rest waits for it to be writable.
        case pending
        /// The connection failed (the machine was told).
        case failed
    }

    /// Writes what the output holds, as far as the socket takes it, without saying it drained
    /// (`flushOutput` does): the response cache sends a response before it stores it.
    @discardableResult
    func writeOutput() -> OutputWrite {
        while !output.isEmpty {
            let pending = output.readable
            switch stream.write(from: pending.baseAddress!, count: pending.count) {
            case .done(let n):
                output.consume(n)
                exchange?.bytesOut += n
            case .wouldBlock:
                updateInterest()
                return .pending
            case .failed:
                perform(machine.handle(.ioFailed))
                return .failed
            }
        }
        return .drained
    }

    /// Sends what the output holds and then `body` (bytes that lie elsewhere, a response body in
    /// the upstream's buffer) in one send, instead of copying the body behind them first: a body
    /// past the pooled buffer's size would grow it, a malloc and a free per response. What the
    /// socket does not take (or a connection through TLS) is appended as before, and a failure
    /// is left for the next write to find and report.
    func writeOutput(thenBody body: UnsafeRawBufferPointer) {
        let pending = output.readableCount
        var sent = 0
        if case .done(let n)? = stream.write(output.readable, then: body) { sent = n }
        exchange?.bytesOut += sent
        if sent < pending {
            output.consume(sent)
            output.append(body)
        } else {
            output.consume(pending)
            output.append(UnsafeRawBufferPointer(rebasing: body[(sent - pending)...]))
        }
    }

    /// Epoll interest follows the machine: read while it (or the exchange) wants input, write
    /// while output waits. Between body and response the socket stays watched, which saves two
    /// epoll_ctl calls per request; early pipelined bytes are buffered (bounded) and a client
    /// that goes away aborts the exchange, as with nginx.
    func updateInterest() {
        guard !machine.isClosed, machine.state != .handshaking else { return }
        var wanted: EventSet = []
        if machine.wantsReadable(exchangeWantsInput: exchange?.wantsClientInput ?? tunnel?.wantsClientInput ?? false) {
            wanted.insert(.readable)
        }
        if !output.isEmpty { wanted.insert(.writable) }
        setInterest(wanted)
    }

    private func setInterest(_ wanted: EventSet) {
        guard wanted != interest else { return }
        interest = wanted
        loop.modify(fd, edge.watch(wanted), token: token)
    }

    // MARK: - Deadlines

    func setDeadline(_ at: UInt64) {
        deadline = at
        loop.scheduleDeadline(self)
    }

    func deadlineReached(now: UInt64) {
        perform(machine.handle(.timerFired(now: now)))
    }

    // MARK: - Finishing

    /// After a response is fully written: the next request, linger, or close.
    func exchangeFinished(keepAlive: Bool) {
        exchange = nil
        headStartedAt = input.isEmpty ? 0 : loop.now
        perform(machine.handle(.exchangeFinished(keepAlive: keepAlive, inputPending: !input.isEmpty,
                                                  draining: worker.isDraining, now: loop.now)))
    }

    /// The exchange cut its response off: reset, so no partial response passes for a whole one.
    func exchangeAborted() {
        exchange = nil
        perform(machine.handle(.exchangeAborted))
    }

    /// The upgrade succeeded: the exchange is over and the tunnel takes the connection on.
    func beginTunnel(_ tunnel: WebSocketTunnel) {
        exchange = nil
        self.tunnel = tunnel
        perform(machine.handle(.modeChanged(.tunnel)))
        tunnel.start()
    }

    /// The tunnel is done and its close frame written: the connection lingers (send side shut,
    /// input read and dropped) so unread client bytes do not turn the close into a reset that
    /// destroys the close frame in flight.
    func endTunnel() {
        guard let tunnel else { return }
        self.tunnel = nil
        tunnel.clientClosed()
        perform(machine.handle(.exchangeFinished(keepAlive: false, inputPending: false, draining: worker.isDraining,
                                                 now: loop.now)))
    }

    /// A closing tunnel whose client did not take its close frame in time.
    func abortTunnel() {
        perform(machine.handle(.exchangeAborted))
    }

    /// The exchange switched what flows on the connection (a streamed response, a tunnel).
    func enterMode(_ mode: ConnectionMachine.Mode) {
        perform(machine.handle(.modeChanged(mode)))
    }

    /// The worker is draining: an idle connection closes now, a busy one after its response.
    /// An idle one reads first: a request that already arrived is answered (`Connection: close`)
    /// rather than lost with the close, which would also reset the connection for its unread
    /// bytes. The peer that sends just as the close goes out can retry: nothing of its request
    /// was taken.
    func drain() {
        tunnel?.goingAway()
        if machine.isIdle {
            readable()
            readOnWhileInputMayRemain()
        }
        perform(machine.handle(.drainStarted))
    }

    private func startLingering() {
        stream.shutdownTLS()
        Syscalls.shutdownWrite(fd)
        input.clear()
        updateInterest()
        discardInput()
    }

    private func closeSocket(reset: Bool) {
        deadline = 0
        if let tunnel {
            self.tunnel = nil
            tunnel.clientClosed()
        }
        if let exchange {
            self.exchange = nil
            exchange.clientAborted()
        }
        if reset { Syscalls.setLingerZero(fd) }
        loop.unregister(fd)
        Syscalls.close(fd)
        input.clear()
        output.clear()
        worker.buffers.recycle(&input)
        worker.buffers.recycle(&output)
        worker.connectionClosed(self)
    }

    /// Closes at once (the worker's connection limit, a failed write).
    func close() {
        perform(machine.handle(.ioFailed))
    }
}

/// The client's address as the gateway reports and forwards it.
struct ClientAddress {
    /// "127.0.0.1" or "::1".
    let text: String
    /// 4 or 16 bytes, for trusted-proxy checks.
    let bytes: [UInt8]
}
