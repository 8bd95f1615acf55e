import CHiredis

/// One Redis connection on one event loop, through hiredis's asynchronous API: commands are
/// written in RESP here (`ByteBuffer+RedisCommand.swift`) and queued and parsed by hiredis, the
/// socket is watched by the loop (`RedisEventAdapter.swift`), replies come back to Swift
/// handlers on the loop thread. Nothing blocks and nothing here is shared with another thread:
/// each worker has its own client per store.
///
/// Commands issued during one loop iteration are buffered by hiredis and written together at
/// the end of the iteration (pipelining). Every command has a deadline: a slower answer fails it
/// and breaks the connection, since later replies on it would be late too. `RedisHealth` decides
/// when the store is down (callers are then refused at once) and when to reconnect.
public final class RedisClient: IOHandler, TimerTarget {
    public struct Options: Sendable, Equatable {
        /// An IP address: hiredis resolves names with a blocking call, so names are resolved before.
        public var host: String
        public var port: Int
        public var password: String?
        public var database: Int
        public var commandTimeoutNanos: UInt64
        public var connectTimeoutNanos: UInt64
        /// Sent after AUTH and SELECT on every new connection, before any other command (SCRIPT
        /// LOAD of the scripts the callers run). An error reply fails the handshake.
        public var setupCommands: [[[UInt8]]]

        public init(host: String, port: Int, password: String?, database: Int, commandTimeoutNanos: UInt64,
                    connectTimeoutNanos: UInt64, setupCommands: [[[UInt8]]] = []) {
            self.host = host
            self.port = port
            self.password = password
            self.database = database
            self.commandTimeoutNanos = commandTimeoutNanos
            self.connectTimeoutNanos = connectTimeoutNanos
            self.setupCommands = setupCommands
        }
    }

    public typealias ReplyHandler = (Result<RedisReply, RedisFailure>) -> Void

    enum State {
        /// No connection; the next attempt is due at `retryAt`.
        case waiting(retryAt: UInt64)
        /// TCP connect, then AUTH/SELECT/setup/PING in flight; `connectDeadline` bounds the TCP part.
        case connecting(RedisContextLink, connectDeadline: UInt64)
        case ready(RedisContextLink)
        case closed
    }

    struct PendingCommand {
        let id: UInt64
        let op: String
        let sentAt: UInt64
        let deadline: UInt64
        let handler: ReplyHandler
    }

    public let loop: EventLoop
    public let options: Options
    public weak var observer: RedisClientObserver?
    var state: State = .waiting(retryAt: 0)
    public internal(set) var health = RedisHealth()
    /// Why the last failure happened, for `/status`.
    public internal(set) var lastError: String?
    /// Commands written and not answered, oldest first: Redis answers in order, so the oldest
    /// also has the earliest deadline.
    var pending: [PendingCommand] = []
    var pendingStart = 0
    var nextID: UInt64 = 1
    /// The command being handed to hiredis, in RESP: reused, since hiredis copies it into its
    /// output buffer at once; given back after a large one (a cached body).
    var commandBytes = ByteBuffer(capacity: 0)
    static let keptCommandCapacity = 64 * 1024

    // hiredis's wishes and what epoll is told (RedisClient+IO.swift).
    var wantsRead = false
    var wantsWrite = false
    var tcpConnected = false
    var flushScheduled = false
    var insideHiredisWrite = false
    var registeredInterest: EventSet = []
    var registrationToken: UInt64 = 0

    public var deadline: UInt64 = 0
    public var scheduledDeadline: UInt64 = 0

    public init(loop: EventLoop, options: Options) {
        self.loop = loop
        self.options = options
    }

    /// Starts the first connection; call on the loop's thread.
    public func start() { connect() }

    public var isDown: Bool { health.isDown }

    public var isConnected: Bool {
        if case .ready = state { return true }
        return false
    }

    // MARK: - Commands

    /// Sends one command (`arguments[0]` is its name). Returns the failure at once — without
    /// calling `handler` — when the store is down or has no connection; otherwise `handler` is
    /// called once, on the loop thread, with the reply or the failure.
    public func send(_ arguments: [[UInt8]], op: String, handler: @escaping ReplyHandler) -> RedisFailure? {
        if health.isDown { return .down }
        let link: RedisContextLink
        switch state {
        case .ready(let current), .connecting(let current, _): link = current
        case .waiting, .closed:
            let failure = RedisFailure.notConnected(lastError ?? "connecting")
            recordFailure(op: op, reason: failure.description)
            return failure
        }
        guard issue(arguments, op: op, on: link, handler: handler) else {
            let failure = RedisFailure.connectionLost(lastError ?? "hiredis refused the command")
            recordFailure(op: op, reason: failure.description)
            return failure
        }
        return nil
    }

    /// Counts a failure the caller saw in a reply (an unexpected error reply).
    public func reportFailure(op: String, reason: String) {
        recordFailure(op: op, reason: reason)
    }

    /// Hands one command to hiredis; false when hiredis refused it (only on a context that is
    /// going away), in which case `handler` is never called and the connection is broken.
    @discardableResult
    func issue(_ arguments: [[UInt8]], op: String, on link: RedisContextLink, handler: @escaping ReplyHandler) -> Bool {
        guard !link.isDetached else { return false }
        let id = nextID
        nextID += 1
        commandBytes.appendRedisCommand(arguments)
        let status = redisAsyncFormattedCommand(link.context, redisReplyArrived, UnsafeMutableRawPointer(bitPattern: UInt(id)),
                                                commandBytes.base.assumingMemoryBound(to: CChar.self), commandBytes.readableCount)
        commandBytes.clear()
        if commandBytes.capacity > Self.keptCommandCapacity { commandBytes.release() }
        guard status == REDIS_OK else {
            breakConnection(reason: link.errorText(or: "hiredis refused the command"))
            return false
        }
        link.commandQueued()
        let now = loop.now
        pending.append(PendingCommand(id: id, op: op, sentAt: now, deadline: now + options.commandTimeoutNanos,
                                      handler: handler))
        rearm()
        return true
    }

    // MARK: - Replies

    func replyArrived(id: UInt64, reply: UnsafePointer<redisReply>?, link: RedisContextLink) {
        guard pendingStart < pending.count, pending[pendingStart].id == id else { return }
        let command = pending[pendingStart]
        pendingStart += 1
        compactPending()
        guard let reply else {
            // hiredis is tearing the context down; `contextFreed` follows.
            fail(command, .connectionLost(link.errorText(or: "connection closed")))
            return
        }
        let value = RedisReply(reply)
        // An error reply is no sign of health: a wrong password, a read-only replica after a
        // failover. The handshake or the caller decides whether it is a failure (`reportFailure`;
        // a NOSCRIPT the caller mends is not); counted as a success here, it would reset the
        // failures in a row and the reconnect backoff, so such a store would never be marked down.
        if !value.isError, case .cameUp = health.recordSuccess() { observer?.redisClient(self, isUp: true, reason: nil) }
        observer?.redisClient(self, answered: command.op, latencyNanos: loop.now &- command.sentAt)
        command.handler(.success(value))
        rearm()
    }

    func fail(_ command: PendingCommand, _ failure: RedisFailure) {
        recordFailure(op: command.op, reason: failure.description)
        command.handler(.failure(failure))
    }

    func recordFailure(op: String, reason: String) {
        lastError = reason
        observer?.redisClient(self, failed: op, reason: reason)
        if case .wentDown = health.recordFailure() { wentDown(reason: reason) }
    }

    func wentDown(reason: String) {
        observer?.redisClient(self, isUp: false, reason: reason)
        // While down the store is probed by reconnecting (with backoff), never by user commands.
        if case .ready = state { breakConnection(reason: reason) }
    }

    private func compactPending() {
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        } else if pendingStart > 64 && pendingStart * 2 > pending.count {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
    }

    /// Takes every command still waiting, oldest first.
    func takePending() -> ArraySlice<PendingCommand> {
        let taken = pending[pendingStart...]
        pending = []
        pendingStart = 0
        return taken
    }

    // MARK: - Timers

    /// The deadline is the earliest of the oldest command's, the TCP connect's and the next
    /// connection attempt's.
    func rearm() {
        var next: UInt64 = pendingStart < pending.count ? pending[pendingStart].deadline : 0
        switch state {
        case .waiting(let retryAt): next = next == 0 ? retryAt : min(next, retryAt)
        case .connecting(_, let connectDeadline) where !tcpConnected:
            next = next == 0 ? connectDeadline : min(next, connectDeadline)
        default: break
        }
        deadline = next
        loop.scheduleDeadline(self)
    }

    public func deadlineReached(now: UInt64) {
        switch state {
        case .closed: return
        case .waiting(let retryAt) where retryAt <= now:
            connect()
            return
        case .connecting(_, let connectDeadline) where !tcpConnected && connectDeadline <= now:
            breakConnection(reason: "connect timed out")
            return
        default: break
        }
        if pendingStart < pending.count, pending[pendingStart].deadline <= now {
            let command = pending[pendingStart]
            pendingStart += 1
            fail(command, .timeout)
            breakConnection(reason: "a command timed out")
            return
        }
        rearm()
    }
}
