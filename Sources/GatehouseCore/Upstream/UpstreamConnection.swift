import GatehouseIO

/// What an upstream connection reports to the exchange that owns it.
protocol UpstreamConnectionOwner: AnyObject {
    func upstreamConnected(_ connection: UpstreamConnection)
    func upstreamReadable(_ connection: UpstreamConnection)
    func upstreamWritable(_ connection: UpstreamConnection)
    func upstreamFailed(_ connection: UpstreamConnection, _ failure: UpstreamFailure)
}

enum UpstreamFailure: Error, Equatable {
    case connectTimeout
    case refused(Int32)
    case reset(String)
    /// The TLS handshake failed (certificate not trusted, name mismatch, …).
    case tls(String)
    case closed
}

/// One TCP connection to an upstream, pooled per worker. While lent to an exchange it reports
/// its events to that owner; while idle in the pool any event means the upstream closed it or
/// sent bytes nobody asked for, and the connection is discarded.
final class UpstreamConnection: IOHandler, TimerTarget {
    enum State {
        case connecting
        /// TCP is up; the TLS handshake is under way (https upstreams).
        case handshaking
        case active
        case idle
        case closed
    }

    /// Strong: a pool retired by a reload must live until its last lent connection returns.
    let pool: UpstreamPool
    let fd: Int32
    private(set) var stream: SocketStream
    private var token: UInt64 = 0
    private(set) var state: State = .connecting
    private var interest: EventSet = []
    /// Edge-triggered for a plain socket, level-triggered under TLS (`EdgeTriggeredInput`).
    private var edge: EdgeTriggeredInput
    var owner: (any UpstreamConnectionOwner)?
    /// Large enough that a 64 KiB response body arrives in one or two reads.
    var input = ByteBuffer(capacity: 64 * 1024)
    var output = ByteBuffer(capacity: 16 * 1024)
    /// Bytes written for the current request; a dead pooled connection is retried only at 0.
    private(set) var bytesWrittenForRequest = 0
    /// Requests this connection carried before the current one.
    private(set) var completedRequests = 0
    var deadline: UInt64 = 0
    var scheduledDeadline: UInt64 = 0

    init(pool: UpstreamPool, fd: Int32) {
        self.pool = pool
        self.fd = fd
        stream = SocketStream(fd: fd)
        edge = EdgeTriggeredInput(edgeTriggered: pool.upstream.tlsContext == nil)
    }

    var loop: EventLoop { pool.loop }
    var isReused: Bool { completedRequests > 0 }

    func startConnecting(timeoutNanos: UInt64) {
        token = loop.register(fd, edge.watch(.writable), handler: self)
        interest = .writable
        deadline = loop.now + timeoutNanos
        loop.scheduleDeadline(self)
    }

    /// Lends the connection to `owner` for one request.
    func lend(to owner: any UpstreamConnectionOwner) {
        self.owner = owner
        bytesWrittenForRequest = 0
        if state == .idle { state = .active }
    }

    /// Back to the pool's idle list after a clean exchange.
    func markIdle() {
        owner = nil
        completedRequests += 1
        state = .idle
        input.clear()
        output.clear()
        setInterest(.readable)
    }

    // MARK: - Interest

    func setInterest(_ wanted: EventSet) {
        guard state != .closed, wanted != interest else { return }
        interest = wanted
        loop.modify(fd, edge.watch(wanted), token: token)
    }

    /// Reads and writes as the owner's buffers allow.
    func updateInterest(wantRead: Bool) {
        var wanted: EventSet = []
        if wantRead { wanted.insert(.readable) }
        if !output.isEmpty { wanted.insert(.writable) }
        setInterest(wanted)
    }

    // MARK: - I/O

    /// Reads what is available into `input`: the byte count, 0 at end of stream, nil when nothing
    /// is there yet, or a failure. TLS records already decrypted are drained in the same call.
    func readAvailable() -> Result<Int?, UpstreamFailure> {
        var total = 0
        repeat {
            input.reserveTail(32 * 1024)
            let room = input.tailSpace
            switch stream.read(into: input.tail, count: room) {
            case .done(0):
                return .success(total > 0 ? total : 0)
            case .done(let n):
                input.commit(n)
                total += n
                if edge.readReturned(n, room: room) { lookAgainForInput() }
            case .wouldBlock(let needsWritable):
                if needsWritable { setInterest(interest.union(.writable)) }
                return .success(total > 0 ? total : nil)
            case .failed(let reason):
                return .failure(failure(reason))
            }
        } while stream.hasBufferedInput
        return .success(total)
    }

    /// A read that came after the upstream's close was reported, or one more read that did not
    /// happen, may have left bytes or the end in the socket: epoll is asked to re-check it.
    private func lookAgainForInput() {
        guard edge.isOn, state != .closed, interest.contains(.readable) else { return }
        loop.modify(fd, edge.watch(interest), token: token)
    }

    /// Writes as much of `output` as the socket takes. Returns false on a failure (reported to the owner).
    @discardableResult
    func flush() -> Bool {
        while !output.isEmpty {
            let pending = output.readable
            switch stream.write(from: pending.baseAddress!, count: pending.count) {
            case .done(let n):
                output.consume(n)
                bytesWrittenForRequest += n
            case .wouldBlock(let needsWritable):
                if needsWritable { setInterest(interest.union(.writable)) }
                return true
            case .failed(let reason):
                report(failure(reason))
                return false
            }
        }
        if interest.contains(.writable) { setInterest(interest.subtracting(.writable)) }
        return true
    }

    /// A failure on a new TLS connection is the TLS session failing (with TLS 1.3 an upstream
    /// refuses a client certificate only after the handshake); on a reused one it is the
    /// connection dying, which may be retried.
    private func failure(_ reason: String) -> UpstreamFailure {
        stream.tls != nil && !isReused ? .tls(reason) : .reset(reason)
    }

    // MARK: - Connecting

    private func connected() {
        guard let context = pool.upstream.tlsContext else { return becomeActive() }
        do {
            let tls = try TLSConnection(context: context, fd: fd,
                                        mode: .client(serverName: pool.upstream.tlsServerName, session: pool.sessionCache))
            stream = SocketStream(fd: fd, tls: tls)
        } catch {
            return report(.tls(error.message))
        }
        state = .handshaking
        continueHandshake()
    }

    /// Handshake time counts against `connect_timeout`: the connect deadline stays armed.
    private func continueHandshake() {
        guard let tls = stream.tls else { return }
        switch tls.handshake() {
        case .done: becomeActive()
        case .wantRead: setInterest(.readable)
        case .wantWrite: setInterest(.writable)
        case .failed(let error): report(.tls(error.message))
        }
    }

    private func becomeActive() {
        state = .active
        deadline = 0
        setInterest([])
        owner?.upstreamConnected(self)
    }

    func handleEvents(_ events: EventSet) {
        edge.noteEvents(events)
        switch state {
        case .closed:
            return
        case .idle:
            // The upstream closed an idle connection or sent unsolicited bytes: drop it.
            pool.discard(self)
        case .connecting:
            let code = Syscalls.connectError(fd)
            if code != 0 || events.contains(.error) || events.contains(.hangup) {
                report(.refused(code == 0 ? 111 : code))
                return
            }
            connected()
        case .handshaking:
            continueHandshake()
        case .active:
            guard let owner else { return }
            if events.contains(.writable) || (events.contains(.error) && !events.contains(.readable)) {
                owner.upstreamWritable(self)
            }
            if state == .active && (events.contains(.readable) || events.contains(.hangup)) {
                owner.upstreamReadable(self)
                readOnWhileInputMayRemain(for: owner)
            }
        }
    }

    /// The owner reads on once it has handled what came, while it still owns the connection and
    /// wants input (`EdgeTriggeredInput`).
    private func readOnWhileInputMayRemain(for owner: any UpstreamConnectionOwner) {
        var reads = 0
        while edge.takeMayRemain() {
            guard state == .active, self.owner === owner, interest.contains(.readable),
                  reads < EdgeTriggeredInput.readsPerEvent else {
                return lookAgainForInput()
            }
            reads += 1
            owner.upstreamReadable(self)
        }
    }

    func deadlineReached(now: UInt64) {
        if state == .connecting || state == .handshaking { report(.connectTimeout) }
    }

    private func report(_ failure: UpstreamFailure) {
        let owner = self.owner
        pool.discard(self)
        owner?.upstreamFailed(self, failure)
    }

    /// Closes the socket; the pool's bookkeeping is the caller's (see `UpstreamPool.discard`).
    func close() {
        guard state != .closed else { return }
        if state == .idle { stream.shutdownTLS() }
        state = .closed
        owner = nil
        deadline = 0
        loop.unregister(fd)
        Syscalls.close(fd)
    }
}
