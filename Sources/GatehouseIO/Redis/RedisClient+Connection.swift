import CHiredis

/// Connecting, the handshake (AUTH, SELECT, the setup commands, PING) and breaking a connection.
extension RedisClient {
    // MARK: - Connecting

    func connect() {
        guard !isClosed else { return }
        guard let context = redisAsyncConnect(options.host, Int32(options.port)) else {
            connectionFailed(reason: "hiredis could not allocate a context")
            return
        }
        if context.pointee.err != 0 {
            let reason = context.pointee.errstr.map { String(cString: $0) } ?? "connect failed"
            redisAsyncFree(context)
            connectionFailed(reason: reason)
            return
        }
        let link = RedisContextLink(context: context, client: self)
        link.attach()
        wantsRead = false
        wantsWrite = false
        tcpConnected = false
        flushScheduled = false
        registeredInterest = []
        registrationToken = loop.register(link.fd, [], handler: self)
        state = .connecting(link, connectDeadline: loop.now + options.connectTimeoutNanos)
        for command in handshakeCommands {
            let issued = issue(command.arguments, op: "connect", on: link) { [weak self] result in
                self?.handshakeStep(command.isLast, result)
            }
            guard issued else { return }
        }
    }

    /// The commands every new connection starts with; PING last, whose answer makes it ready.
    private var handshakeCommands: [(arguments: [[UInt8]], isLast: Bool)] {
        var commands: [[[UInt8]]] = []
        if let password = options.password { commands.append([Array("AUTH".utf8), Array(password.utf8)]) }
        if options.database != 0 { commands.append([Array("SELECT".utf8), Array(String(options.database).utf8)]) }
        commands += options.setupCommands
        commands.append([Array("PING".utf8)])
        return commands.enumerated().map { ($0.element, $0.offset == commands.count - 1) }
    }

    private func handshakeStep(_ isLast: Bool, _ result: Result<RedisReply, RedisFailure>) {
        guard case .connecting(let link, _) = state else { return }
        switch result {
        case .failure:
            break  // counted already; the connection is being broken
        case .success(.error(let text)):
            // A wrong password or database does not mend itself: down at once, with Redis's words.
            lastError = "handshake refused: \(text)"
            breakConnection(reason: lastError!, markDown: true)
        case .success:
            guard isLast else { return }
            state = .ready(link)
            rearm()
        }
    }

    /// hiredis finished the TCP connect (or failed it; it then frees the context itself).
    func connectFinished(_ link: RedisContextLink, succeeded: Bool) {
        guard case .connecting(let current, _) = state, current === link else { return }
        if succeeded {
            tcpConnected = true
            updateInterest()
        }
        // A failure is handled in `contextFreed`, which hiredis calls right after.
    }

    /// hiredis freed a context the client still held: the connection broke (EOF, a read or
    /// write error, a refused connect).
    func contextFreed(_ link: RedisContextLink) {
        switch state {
        case .connecting(let current, _) where current === link, .ready(let current) where current === link:
            loop.unregister(link.fd)
            link.isDetached = true
            lostConnection(reason: link.errorText(or: "connection closed"), markDown: false)
        default:
            break
        }
    }

    // MARK: - Breaking

    /// Lets go of the current connection: every waiting command fails and a new connection is
    /// scheduled with backoff.
    func breakConnection(reason: String, markDown: Bool = false) {
        let link: RedisContextLink
        switch state {
        case .connecting(let current, _), .ready(let current): link = current
        case .waiting, .closed:
            if markDown, case .wentDown = health.markDown() { wentDown(reason: reason) }
            return
        }
        detach(link)
        lostConnection(reason: reason, markDown: markDown)
    }

    private func lostConnection(reason: String, markDown: Bool) {
        lastError = reason
        let retryAt: UInt64
        var transition: RedisHealth.Transition
        (transition, retryAt) = health.connectionFailed(now: loop.now)
        if markDown, case .wentDown = health.markDown() { transition = .wentDown }
        state = .waiting(retryAt: retryAt)
        observer?.redisClient(self, failed: "connect", reason: reason)
        if case .wentDown = transition { observer?.redisClient(self, isUp: false, reason: reason) }
        for command in takePending() { fail(command, .connectionLost(reason)) }
        rearm()
    }

    private func connectionFailed(reason: String) {
        state = .waiting(retryAt: 0)
        lostConnection(reason: reason, markDown: false)
    }

    /// Stops watching the context and frees it after the current event: hiredis may be inside one
    /// of its own callbacks right now, and anything it still reports for the link is ignored.
    private func detach(_ link: RedisContextLink) {
        link.isDetached = true
        loop.unregister(link.fd)
        loop.defer_ {
            if !link.isFreed { redisAsyncFree(link.context) }
        }
    }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Closes the connection for good (the worker is draining or the store left the config).
    public func close() {
        switch state {
        case .connecting(let link, _), .ready(let link): detach(link)
        case .waiting, .closed: break
        }
        state = .closed
        for command in takePending() { command.handler(.failure(.connectionLost("client closed"))) }
        deadline = 0
    }
}
