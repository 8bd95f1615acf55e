import GatehouseHTTP
import GatehouseIO

/// One client connection: the I/O shell around the request pipeline. It reads and parses request
/// heads, runs the request phases, drives the upstream exchange and writes responses, one request
/// at a time (pipelined requests wait in `input` and are answered in order).
final class ClientConnection: IOHandler, TimerTarget {
    enum State {
        /// `server.tls`: the TLS handshake runs before any request (bounded by `header_timeout`).
        case handshaking
        /// Waiting for (more of) a request head; idle when `input` is empty.
        case awaitingHead
        /// A request is being forwarded or answered.
        case exchanging
        /// The response is written; reading and discarding until the client closes or a short
        /// deadline passes, so that unread request bytes do not turn our close into a reset that
        /// destroys the response.
        case lingering
        case closed
    }

    /// Workers outlive their connections.
    unowned(unsafe) let worker: Worker
    let fd: Int32
    let stream: SocketStream
    private var token: UInt64 = 0
    let client: ClientAddress
    var state: State
    private var interest: EventSet = []
    /// Both buffers are released while the connection is idle, so an idle keep-alive
    /// connection costs little more than this object.
    var input = ByteBuffer(capacity: 0)
    var output = ByteBuffer(capacity: 0)
    var scanned = 0
    var deadline: UInt64 = 0
    var scheduledDeadline: UInt64 = 0
    /// When the current head started arriving (0: idle).
    var headStartedAt: UInt64 = 0
    /// The request in flight, if any.
    var exchange: Exchange?
    /// Close once the current response is written.
    var closeAfterResponse = false
    /// The client sent its FIN; answer what it asked and then close.
    var peerHalfClosed = false

    var loop: EventLoop { worker.loop }

    init(worker: Worker, fd: Int32, tls: TLSConnection?, client: ClientAddress) {
        self.worker = worker
        self.fd = fd
        stream = SocketStream(fd: fd, tls: tls)
        self.client = client
        state = tls == nil ? .awaitingHead : .handshaking
    }

    var isTLS: Bool { stream.tls != nil }

    func start() {
        token = loop.register(fd, .readable, handler: self)
        interest = .readable
        if state == .handshaking {
            setDeadline(loop.now + worker.snapshot.headerTimeoutNanos)
            continueHandshake()
        } else {
            armIdleDeadline()
        }
    }

    /// A failed handshake (a plain-HTTP request on the TLS port, an untrusted client
    /// certificate) closes the connection without a response: there is no channel to answer on.
    private func continueHandshake() {
        guard let tls = stream.tls else { return }
        let wanted: EventSet
        switch tls.handshake() {
        case .done:
            state = .awaitingHead
            armIdleDeadline()
            wanted = .readable
        case .wantRead:
            wanted = .readable
        case .wantWrite:
            wanted = .writable
        case .failed:
            return close()
        }
        if wanted != interest {
            interest = wanted
            loop.modify(fd, wanted, token: token)
        }
    }

    // MARK: - Events

    func handleEvents(_ events: EventSet) {
        if state == .handshaking { return continueHandshake() }
        if events.contains(.writable) {
            flushOutput()
        }
        if state != .closed && (events.contains(.readable) || events.contains(.hangup) || events.contains(.error)) {
            readable()
        }
    }

    private func readable() {
        switch state {
        case .awaitingHead:
            guard readIntoInput() else { return }
            processInput()
        case .exchanging:
            guard let exchange else { return }
            if exchange.wantsRequestBody {
                guard readIntoInput() else { return }
                exchange.pumpRequestBody()
            } else if !readIntoInput() {
                return  // the client went away mid-exchange; close() already cleaned up
            }
        case .lingering:
            discardInput()
        case .handshaking, .closed:
            return
        }
    }

    /// Reads what the socket has into `input`. Returns false (after closing) at end of stream or
    /// on an error.
    @discardableResult
    func readIntoInput() -> Bool {
        worker.buffers.fill(&input)
        repeat {
            input.reserveTail(2048)
            switch stream.read(into: input.tail, count: input.tailSpace) {
            case .done(0):
                peerClosed()
                return false
            case .done(let n):
                input.commit(n)
            case .wouldBlock:
                return true
            case .failed:
                close()
                return false
            }
        } while stream.hasBufferedInput
        return true
    }

    /// End of the client's stream. A client that half-closes after a complete request
    /// (shutdown(SHUT_WR)) still gets its answer, and any requests it pipelined before, as
    /// haproxy does; one that stops mid-request is gone.
    private func peerClosed() {
        if let exchange, !exchange.wantsRequestBody, exchange.collectedBody == nil {
            peerHalfClosed = true
            updateInterest()
            return
        }
        close()
    }

    private func discardInput() {
        var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while true {
            let result = withUnsafeMutableBytes(of: &scratch) { stream.read(into: $0.baseAddress!, count: $0.count) }
            switch result {
            case .done(0), .failed:
                close()
                return
            case .done:
                continue
            case .wouldBlock:
                return
            }
        }
    }

    // MARK: - Writing

    /// Writes as much of `output` as the socket takes; continues the exchange or the next request
    /// once everything is out.
    func flushOutput() {
        while !output.isEmpty {
            let pending = output.readable
            switch stream.write(from: pending.baseAddress!, count: pending.count) {
            case .done(let n):
                output.consume(n)
                exchange?.bytesOut += n
            case .wouldBlock:
                updateInterest()
                return
            case .failed:
                exchange?.clientAborted()
                close()
                return
            }
        }
        if let exchange {
            exchange.clientDrained()
        } else if closeAfterResponse {
            linger()
        } else {
            updateInterest()
        }
    }

    /// Epoll interest follows the state: read while a head or body is wanted, write while output waits.
    func updateInterest() {
        guard state != .closed else { return }
        var wanted: EventSet = []
        switch state {
        case .awaitingHead where peerHalfClosed:
            break
        case .awaitingHead, .lingering, .handshaking:
            wanted.insert(.readable)
        case .exchanging where peerHalfClosed:
            break
        case .exchanging:
            // Between body and response the socket stays watched, which saves two epoll_ctl
            // calls per request; early pipelined bytes are buffered (bounded) and a client that
            // goes away aborts the exchange, as with nginx.
            if let exchange {
                if exchange.wantsRequestBody ? exchange.canTakeRequestBody : input.readableCount < Exchange.highWater {
                    wanted.insert(.readable)
                }
            }
        case .closed:
            break
        }
        if !output.isEmpty { wanted.insert(.writable) }
        if wanted != interest {
            interest = wanted
            loop.modify(fd, wanted, token: token)
        }
    }

    // MARK: - Deadlines

    func armIdleDeadline() {
        setDeadline(loop.now + worker.snapshot.idleTimeoutNanos)
    }

    func setDeadline(_ at: UInt64) {
        deadline = at
        loop.scheduleDeadline(self)
    }

    func deadlineReached(now: UInt64) {
        switch state {
        case .handshaking:
            close()
        case .awaitingHead:
            if headStartedAt == 0 {
                close()  // idle keep-alive connection: silent close
            } else {
                respondWithoutExchange(GatewayError(.requestTimeout, "The request head was not received in time."))
            }
        case .exchanging:
            if let exchange { exchange.deadlineReached(now: now) } else { close() }
        case .lingering:
            close()
        case .closed:
            break
        }
    }

    // MARK: - Finishing

    /// After a response is fully written: next request, linger, or close.
    func exchangeFinished(keepAlive: Bool) {
        exchange = nil
        if !keepAlive || worker.isDraining || (peerHalfClosed && input.isEmpty) {
            linger()
            return
        }
        state = .awaitingHead
        scanned = 0
        headStartedAt = 0
        if input.isEmpty {
            worker.buffers.recycle(&input)
            worker.buffers.recycle(&output)
            armIdleDeadline()
            updateInterest()
        } else {
            // A pipelined request is already here; answer it after this event.
            armIdleDeadline()
            updateInterest()
            loop.defer_ { [self] in
                if state == .awaitingHead { processInput() }
            }
        }
    }

    /// Half-closes and drains the client for a moment before closing (see `State.lingering`).
    func linger() {
        guard state != .closed else { return }
        if !output.isEmpty {
            closeAfterResponse = true
            updateInterest()
            return
        }
        closeAfterResponse = false
        state = .lingering
        stream.shutdownTLS()
        Syscalls.shutdownWrite(fd)
        input.clear()
        setDeadline(loop.now + 2_000_000_000)
        updateInterest()
        discardInput()
    }

    /// Closes with a reset: a response cut off mid-way (route timeout, upstream failure) must not
    /// leave its unsent bytes queued in the kernel for a reader that trickles.
    func abort() {
        guard state != .closed else { return }
        Syscalls.setLingerZero(fd)
        close()
    }

    func close() {
        guard state != .closed else { return }
        state = .closed
        deadline = 0
        if let exchange {
            self.exchange = nil
            exchange.clientAborted()
        }
        loop.unregister(fd)
        Syscalls.close(fd)
        input.clear()
        output.clear()
        worker.buffers.recycle(&input)
        worker.buffers.recycle(&output)
        worker.connectionClosed(self)
    }
}

/// The client's address as the gateway reports and forwards it.
struct ClientAddress {
    /// "127.0.0.1" or "::1".
    let text: String
    /// 4 or 16 bytes, for trusted-proxy checks.
    let bytes: [UInt8]
}
