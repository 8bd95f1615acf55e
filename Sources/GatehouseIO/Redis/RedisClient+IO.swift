import CHiredis

/// The socket side of the adapter: hiredis's read/write wishes become epoll interest, and output
/// is flushed once per loop iteration.
extension RedisClient {
    /// One of hiredis's `ev` hooks for the current context.
    func hiredisHook(_ hook: RedisContextLink.Hook, link: RedisContextLink) {
        guard currentLink === link else { return }
        switch hook {
        case .addRead: wantsRead = true
        case .delRead: wantsRead = false
        case .delWrite: wantsWrite = false
        case .addWrite:
            wantsWrite = true
            // Once connected, everything written during this iteration goes out in one write at
            // its end; before that (TCP connect in progress) epoll says when the socket is ready.
            if tcpConnected && !flushScheduled && !insideHiredisWrite {
                flushScheduled = true
                loop.defer_ { [weak self] in self?.flush() }
            }
        }
        updateInterest()
    }

    var currentLink: RedisContextLink? {
        switch state {
        case .connecting(let link, _), .ready(let link): return link
        case .waiting, .closed: return nil
        }
    }

    /// Epoll is asked for writability only when a write could not finish (or the connect is in
    /// progress); a scheduled flush covers the usual case without a system call.
    func updateInterest() {
        guard let link = currentLink else { return }
        var interest: EventSet = []
        if wantsRead { interest.insert(.readable) }
        if wantsWrite && !flushScheduled { interest.insert(.writable) }
        guard interest != registeredInterest else { return }
        registeredInterest = interest
        loop.modify(link.fd, interest, token: registrationToken)
    }

    private func flush() {
        flushScheduled = false
        guard let link = currentLink else { return }
        if wantsWrite { handleWrite(link) }
        if currentLink === link { updateInterest() }
    }

    private func handleWrite(_ link: RedisContextLink) {
        insideHiredisWrite = true
        redisAsyncHandleWrite(link.context)
        insideHiredisWrite = false
    }

    public func handleEvents(_ events: EventSet) {
        guard let link = currentLink else { return }
        // An error or hangup during the connect is reported through the write path (hiredis
        // checks SO_ERROR there), afterwards through the read path (it reads the EOF or error).
        let failed = !events.isDisjoint(with: [.error, .hangup])
        if events.contains(.writable) || (failed && !tcpConnected) {
            handleWrite(link)
            guard currentLink === link else { return }
        }
        if !events.isDisjoint(with: [.readable, .peerClosed]) || (failed && tcpConnected) {
            redisAsyncHandleRead(link.context)
        }
        if currentLink === link { updateInterest() }
    }
}
