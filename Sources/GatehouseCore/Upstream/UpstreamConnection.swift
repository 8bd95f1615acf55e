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
    case reset(Int32)
    case closed
}

/// One TCP connection to an upstream, pooled per worker. While lent to an exchange it reports
/// its events to that owner; while idle in the pool any event means the upstream closed it or
/// sent bytes nobody asked for, and the connection is discarded.
final class UpstreamConnection: IOHandler, TimerTarget {
    enum State {
        case connecting
        case active
        case idle
        case closed
    }

    unowned let pool: UpstreamPool
    let fd: Int32
    private var token: UInt64 = 0
    private(set) var state: State = .connecting
    private var interest: EventSet = []
    var owner: (any UpstreamConnectionOwner)?
    var input = ByteBuffer(capacity: 16 * 1024)
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
    }

    var loop: EventLoop { pool.loop }
    var isReused: Bool { completedRequests > 0 }

    func startConnecting(timeoutNanos: UInt64) {
        token = loop.register(fd, .writable, handler: self)
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
        loop.modify(fd, wanted, token: token)
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
    /// is there yet, or a failure.
    func readAvailable() -> Result<Int?, UpstreamFailure> {
        input.reserveTail(16 * 1024)
        switch Syscalls.read(fd, input.tail, input.tailSpace) {
        case .done(let n):
            input.commit(n)
            return .success(n)
        case .wouldBlock:
            return .success(nil)
        case .failed(let code):
            return .failure(.reset(code))
        }
    }

    /// Writes as much of `output` as the socket takes. Returns false on a failure (reported to the owner).
    @discardableResult
    func flush() -> Bool {
        while !output.isEmpty {
            let pending = output.readable
            switch Syscalls.write(fd, pending.baseAddress!, pending.count) {
            case .done(let n):
                output.consume(n)
                bytesWrittenForRequest += n
            case .wouldBlock:
                setInterest(interest.union(.writable))
                return true
            case .failed(let code):
                report(.reset(code))
                return false
            }
        }
        if interest.contains(.writable) { setInterest(interest.subtracting(.writable)) }
        return true
    }

    func handleEvents(_ events: EventSet) {
        switch state {
        case .closed:
            return
        case .idle:
            // The upstream closed an idle connection or sent unsolicited bytes: drop it.
            pool.discard(self)
        case .connecting:
            let code = Syscalls.socketError(fd)
            if code != 0 || events.contains(.error) || events.contains(.hangup) {
                report(.refused(code == 0 ? 111 : code))
                return
            }
            state = .active
            deadline = 0
            interest = []
            loop.modify(fd, [], token: token)
            owner?.upstreamConnected(self)
        case .active:
            guard let owner else { return }
            if events.contains(.writable) || (events.contains(.error) && !events.contains(.readable)) {
                owner.upstreamWritable(self)
            }
            if state == .active && (events.contains(.readable) || events.contains(.hangup)) {
                owner.upstreamReadable(self)
            }
        }
    }

    func deadlineReached(now: UInt64) {
        if state == .connecting { report(.connectTimeout) }
    }

    private func report(_ failure: UpstreamFailure) {
        let owner = self.owner
        pool.discard(self)
        owner?.upstreamFailed(self, failure)
    }

    /// Closes the socket; the pool's bookkeeping is the caller's (see `UpstreamPool.discard`).
    func close() {
        guard state != .closed else { return }
        state = .closed
        owner = nil
        deadline = 0
        loop.unregister(fd)
        Syscalls.close(fd)
    }
}
