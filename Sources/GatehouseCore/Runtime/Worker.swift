import CLinux
import GatehouseConfig
import GatehouseHTTP
import GatehouseIO

/// One event-loop thread: its listener, client connections, upstream pools, metrics and log.
/// Nothing here is shared with other workers; the configuration arrives as immutable snapshots.
public final class Worker: @unchecked Sendable {
    let index: Int
    public let loop: EventLoop
    private(set) var snapshot: GatewaySnapshot
    private let shared: SharedServerState
    let metrics: WorkerMetrics
    let accessLog: AccessLog
    private var acceptor: Acceptor?
    private(set) var endpointGroups: [UpstreamEndpointGroup] = []
    private var groupsByKey: [String: UpstreamEndpointGroup] = [:]
    private var routeMetricsByIndex: [RouteMetrics] = []
    private let unroutedMetrics: RouteMetrics
    /// Also the random source for new trace contexts (Worker+TraceContext.swift).
    var requestIDs = RequestIDGenerator()
    let buffers = BufferPool(limit: 1024)
    let gzipStreams = GzipStreamPool(limit: 16)
    private var connections: [ObjectIdentifier: ClientConnection] = [:]
    private(set) var isDraining = false
    private var drainFinished = false
    private var tokenCaches: [ObjectIdentifier: VerifiedTokenCache] = [:]
    /// The provider asked for last and its cache: routes mostly share one provider, and the
    /// dictionary lookup this skips hashes its key on every JWT request (callgrind: about 130
    /// instructions of an HS256 request's 18,870).
    private var lastTokenCache: (provider: ObjectIdentifier, cache: VerifiedTokenCache)?
    /// GET calls already translated under the current snapshot.
    let preparedCalls = PreparedCallMemo()
    /// Requests waiting for a remote key refetch (`KeyWaitList`).
    lazy var keyWaits = KeyWaitList(loop: loop)
    /// This worker's connections to the shared stores (`Stores/WorkerStores.swift`).
    let stores: WorkerStores

    init(index: Int, snapshot: GatewaySnapshot, listenerFD: Int32, shared: SharedServerState, logFD: Int32) {
        self.index = index
        loop = EventLoop(name: "gatehouse-w\(index)")
        self.snapshot = snapshot
        self.shared = shared
        metrics = WorkerMetrics()
        accessLog = AccessLog(fd: logFD, loop: loop)
        stores = WorkerStores(loop: loop)
        unroutedMetrics = metrics.route("")
        acceptor = Acceptor(worker: self, fd: listenerFD)
        install(snapshot)
    }

    /// Runs the loop on the calling thread until the worker has drained.
    func run() {
        startAccepting()
        loop.run()
        accessLog.flush()
        // What is left (closed connections in the timer heap, their buffers) goes with the worker.
        connections.removeAll()
        loop.releaseEverything()
    }

    /// Watches the listener; connections are accepted once the loop runs.
    func startAccepting() {
        acceptor?.start()
    }

    // MARK: - Configuration

    /// Takes a new snapshot: endpoint groups (and their pools) for unchanged upstreams are kept,
    /// others are retired.
    func install(_ newer: GatewaySnapshot) {
        snapshot = newer
        var kept: [String: UpstreamEndpointGroup] = [:]
        endpointGroups = newer.upstreams.map { upstream in
            let group: UpstreamEndpointGroup
            if let existing = groupsByKey[upstream.poolKey] {
                group = existing
                group.adopt(upstream)
            } else {
                group = UpstreamEndpointGroup(loop: loop, upstream: upstream, metrics: metrics.upstream(upstream.config.name),
                                              seed: UInt64(index) &+ MonotonicClock.nanoseconds)
            }
            kept[upstream.poolKey] = group
            return group
        }
        for (key, group) in groupsByKey where kept[key] == nil { group.retire() }
        groupsByKey = kept
        routeMetricsByIndex = newer.routes.map { metrics.route($0.label) }
        tokenCaches.removeAll()  // providers are rebuilt with the configuration
        lastTokenCache = nil
        preparedCalls.removeAll()  // routes and held operations may have changed
        stores.install(newer.stores)
    }

    func endpointGroup(for upstreamIndex: Int) -> UpstreamEndpointGroup { endpointGroups[upstreamIndex] }

    func routeMetrics(for route: CompiledRoute?) -> RouteMetrics {
        guard let route, route.index < routeMetricsByIndex.count, routeMetricsByIndex[route.index].label == route.label else {
            return route.map { metrics.route($0.label) } ?? unroutedMetrics
        }
        return routeMetricsByIndex[route.index]
    }

    // MARK: - Requests

    func makeRequestID() -> RequestID { requestIDs.make() }

    /// The client's X-Request-Id when acceptable (README, "How a request is handled"), else a new one.
    func requestID(for head: RequestHead) -> RequestID {
        if let range = head.headerValue(named: HeaderNames.xRequestID) {
            let acceptable = head.bytes.withUnsafeBytes { RequestIDGenerator.isAcceptable(UnsafeRawBufferPointer(rebasing: $0[range])) }
            if acceptable { return RequestID(client: head.string(range)) }
        }
        return requestIDs.make()
    }

    var unixSeconds: Int64 { gh_realtime_ns() / 1_000_000_000 }

    /// This worker's cache of tokens `provider` accepted.
    func tokenCache(for provider: JWTProvider) -> VerifiedTokenCache {
        let key = ObjectIdentifier(provider)
        if let last = lastTokenCache, last.provider == key { return last.cache }
        let cache: VerifiedTokenCache
        if let known = tokenCaches[key] {
            cache = known
        } else {
            cache = VerifiedTokenCache()
            tokenCaches[key] = cache
        }
        lastTokenCache = (key, cache)
        return cache
    }

    /// The one place a finished request is counted and logged, whoever answered it: its route's
    /// metrics always, and the record `line` makes only when the access log is on (its strings
    /// would otherwise cost retains on every request).
    func record(route: CompiledRoute?, status: Int, durationNanos: UInt64, line: () -> RequestRecord) {
        routeMetrics(for: route).record(status: status, micros: Int(durationNanos / 1000))
        if accessLog.isEnabled { accessLog.write(line()) }
    }

    // MARK: - Connections

    /// Called by the acceptor for every new socket.
    func accepted(fd: Int32, peer: SocketAddress?) {
        if shared.connectionCount() >= shared.maxConnections || isDraining {
            Syscalls.close(fd)  // over the limit: accepted and closed at once
            return
        }
        _ = gh_tcp_nodelay(fd)
        shared.connectionOpened()
        metrics.connections.atomicAdd(0, 1)
        let (text, _) = peer?.hostAndPort ?? ("unknown", 0)
        var tls: TLSConnection?
        if let context = snapshot.serverTLS {
            do {
                tls = try TLSConnection(context: context, fd: fd, mode: .server)
            } catch {
                ErrorLog.warn("TLS for client \(text): \(error.message)")
                Syscalls.close(fd)
                shared.connectionClosed()
                metrics.connections.atomicAdd(0, -1)
                return
            }
        }
        let connection = ClientConnection(worker: self, fd: fd, tls: tls,
                                          client: ClientAddress(text: text, bytes: peer?.addressBytes ?? []))
        connections[ObjectIdentifier(connection)] = connection
        connection.start()
    }

    func connectionClosed(_ connection: ClientConnection) {
        connections.removeValue(forKey: ObjectIdentifier(connection))
        shared.connectionClosed()
        metrics.connections.atomicAdd(0, -1)
        if isDraining && connections.isEmpty { finishDrain() }
    }

    // MARK: - Draining

    /// Stops accepting, closes idle connections and lets the rest finish with `Connection: close`.
    func beginDrain() {
        guard !isDraining else { return }
        isDraining = true
        acceptor?.close()
        acceptor = nil
        for connection in Array(connections.values) { connection.drain() }
        if connections.isEmpty { finishDrain() }
    }

    /// Once: the last connection may close while `beginDrain` still walks the others.
    private func finishDrain() {
        guard !drainFinished else { return }
        drainFinished = true
        for group in endpointGroups { group.closeIdle() }
        stores.closeAll()
        loop.stop()
    }
}

/// The little state all workers share: the connection count that `max_connections` limits.
/// Touched once per connection, never per request.
final class SharedServerState: @unchecked Sendable {
    let maxConnections: Int
    private let counter = AtomicCounters(count: 1)

    init(maxConnections: Int) { self.maxConnections = maxConnections }

    func connectionCount() -> Int { counter.load(0) }
    func connectionOpened() { counter.atomicAdd(0, 1) }
    func connectionClosed() { counter.atomicAdd(0, -1) }
}
