import GatehouseIO

/// Who waits for a connection from a full pool.
protocol UpstreamWaiter: AnyObject {
    func connectionAvailable(_ connection: UpstreamConnection)
    func connectionFailed(_ failure: UpstreamFailure)
}

/// Keep-alive connections to one endpoint of an upstream, per worker: at most `max_connections`
/// open, at most `max_idle` idle (both per endpoint). Requests beyond the limit wait in order
/// until a connection frees up or their own deadline passes.
final class UpstreamPool {
    unowned(unsafe) let loop: EventLoop
    private(set) var upstream: CompiledUpstream
    private var idle: [UpstreamConnection] = []
    private var waiters: [UpstreamWaiter] = []
    /// Open connections: connecting, lent out or idle.
    private(set) var openCount = 0
    let metrics: UpstreamMetrics
    /// The address this pool connects to, and its balancing and ejection state.
    let endpoint: UpstreamEndpoint
    /// The upstream's endpoints on this worker; nil once a reload dropped the upstream.
    private(set) weak var group: UpstreamEndpointGroup?
    /// The endpoint left the list (DNS change, reload): lent connections finish, none is kept.
    private(set) var isRetired = false
    /// The last TLS session with this upstream, so reconnects resume instead of a full handshake.
    let sessionCache = TLSSessionCache()

    init(loop: EventLoop, upstream: CompiledUpstream, endpoint: UpstreamEndpoint, group: UpstreamEndpointGroup,
         metrics: UpstreamMetrics) {
        self.loop = loop
        self.upstream = upstream
        self.endpoint = endpoint
        self.group = group
        self.metrics = metrics
    }

    var waitingCount: Int { waiters.count }

    /// Drains the pool: idle connections close now, lent ones when their request is done.
    func retire() {
        isRetired = true
        closeIdle()
    }

    /// A reload keeps the pool (and its idle connections) when the upstream is unchanged.
    func adopt(_ newer: CompiledUpstream) { upstream = newer }

    enum Acquisition {
        /// An idle keep-alive connection, ready to write.
        case reused(UpstreamConnection)
        /// A new connection whose connect is under way; the owner hears `upstreamConnected`.
        case connecting(UpstreamConnection)
        /// Queued; the waiter hears `connectionAvailable` or `connectionFailed`.
        case queued
        case failed(UpstreamFailure)
    }

    func acquire(for waiter: UpstreamWaiter) -> Acquisition {
        if let connection = idle.popLast() {
            return .reused(connection)
        }
        if openCount < upstream.config.maxConnections {
            return connect()
        }
        waiters.append(waiter)
        return .queued
    }

    /// A new connection even when idle ones exist (the retry after a dead pooled connection).
    func acquireFresh(for waiter: UpstreamWaiter) -> Acquisition {
        if openCount < upstream.config.maxConnections { return connect() }
        waiters.append(waiter)
        return .queued
    }

    func cancelWait(_ waiter: UpstreamWaiter) {
        waiters.removeAll { $0 === waiter }
    }

    private func connect() -> Acquisition {
        switch Syscalls.connect(to: endpoint.address) {
        case .done(let fd):
            let connection = UpstreamConnection(pool: self, fd: Int32(fd))
            openCount += 1
            connection.startConnecting(timeoutNanos: upstream.connectTimeoutNanos)
            return .connecting(connection)
        case .failed(let code):
            return .failed(.refused(code))
        case .wouldBlock:
            return .failed(.refused(11))
        }
    }

    /// Returns a connection after a clean exchange (response fully read, request fully sent).
    func release(_ connection: UpstreamConnection) {
        if let waiter = waiters.first {
            waiters.removeFirst()
            connection.markIdle()
            loop.defer_ { [self] in
                // It may have been closed by the upstream in the meantime.
                if connection.state == .idle {
                    waiter.connectionAvailable(connection)
                } else {
                    serveWaiter(waiter)
                }
            }
            return
        }
        if idle.count >= upstream.config.maxIdle || isRetired {
            discard(connection)
            return
        }
        connection.markIdle()
        idle.append(connection)
    }

    /// Closes a connection whose state is unknown or that the upstream closed.
    func discard(_ connection: UpstreamConnection) {
        guard connection.state != .closed else { return }
        if connection.state == .idle { idle.removeAll { $0 === connection } }
        connection.close()
        openCount -= 1
        if let waiter = waiters.first {
            waiters.removeFirst()
            loop.defer_ { [self] in serveWaiter(waiter) }
        }
    }

    private func serveWaiter(_ waiter: UpstreamWaiter) {
        switch acquire(for: waiter) {
        case .reused(let connection), .connecting(let connection):
            waiter.connectionAvailable(connection)
        case .queued:
            break
        case .failed(let failure):
            waiter.connectionFailed(failure)
        }
    }

    /// Closes every idle connection (pool retired by a reload, or draining).
    func closeIdle() {
        let connections = idle
        idle.removeAll()
        for connection in connections {
            connection.close()
            openCount -= 1
        }
    }
}
