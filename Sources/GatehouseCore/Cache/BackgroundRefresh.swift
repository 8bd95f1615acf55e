import GatehouseHTTP
import GatehouseIO

/// The one refresh of a stale entry served within `stale_while_revalidate`. It has no client:
/// it takes a connection from the worker's pool for the route's upstream, sends the request the
/// stale hit would have sent, reads the whole response and stores it if it may be stored. It
/// keeps itself alive until it ends; a refresh that never ends is considered lost after the
/// route timeout, and another may start. One that stores nothing (the upstream failed, or its
/// answer may not be stored) makes the next wait, 1 s doubling to 30 s (`CacheRefreshSchedule`).
final class BackgroundRefresh: UpstreamWaiter, UpstreamConnectionOwner {
    private let cache: CompiledRouteCache
    private let key: CacheKey
    private let operation: String
    /// The operation's invalidation count when the refresh went upstream.
    private let invalidationMark: UInt64?
    private let pool: UpstreamPool
    private let loop: EventLoop
    /// The worker's store connections, for a cache kept in Redis.
    private let stores: WorkerStores
    private let request: [UInt8]
    private let requestMethod: HTTPMethod
    private var connection: UpstreamConnection?
    private var response: ResponseHead?
    private var scanned = 0
    private var body: [UInt8] = []
    private var chunked = ChunkedDecoder()
    /// Held while the refresh runs: nothing else owns it.
    private var keepAlive: BackgroundRefresh?

    /// Starts the refresh of `key` unless one is running; the exchange lends its request.
    static func start(for exchange: Exchange, cache: CompiledRouteCache, key: CacheKey, operation: String) {
        guard let route = exchange.route else { return }
        let now = exchange.loop.now
        guard ResponseCache.process.beginRefresh(key, now: now, until: now + route.timeoutNanos) else { return }
        var out = ByteBuffer(capacity: 4096)
        UpstreamRequestWriter.write(exchange: exchange, into: &out)
        if let rewritten = exchange.rewrite?.body {
            out.append(rewritten)
        } else if exchange.rewrite?.dropsBody != true {
            exchange.withBody { if let body = $0 { out.append(body) } }
        }
        let method: HTTPMethod = exchange.rewrite?.method.map { $0 == Array("GET".utf8) ? .get : .post }
            ?? exchange.head.methodKind
        // One of the upstream's available endpoints, as the balancer picks it for a request.
        guard let pool = exchange.worker.endpointGroup(for: route.upstreamIndex).pick(now: now) else {
            ResponseCache.process.endRefresh(key, stored: false, now: now)
            return
        }
        let refresh = BackgroundRefresh(cache: cache, key: key, operation: operation, pool: pool, loop: exchange.loop,
                                        stores: exchange.storeClients, request: Array(out.readable), method: method)
        refresh.run()
    }

    private init(cache: CompiledRouteCache, key: CacheKey, operation: String, pool: UpstreamPool, loop: EventLoop,
                 stores: WorkerStores, request: [UInt8], method: HTTPMethod) {
        self.cache = cache
        self.key = key
        self.operation = operation
        invalidationMark = cache.invalidationMark(for: operation)
        self.pool = pool
        self.loop = loop
        self.stores = stores
        self.request = request
        requestMethod = method
    }

    private func run() {
        keepAlive = self
        switch pool.acquire(for: self) {
        case .reused(let connection), .connecting(let connection):
            attach(connection)
        case .queued:
            break
        case .failed:
            end(stored: false)
        }
    }

    private func attach(_ connection: UpstreamConnection) {
        connection.lend(to: self)
        self.connection = connection
        connection.output.append(request)
        if connection.state == .active, connection.flush() { connection.updateInterest(wantRead: true) }
    }

    // MARK: - Pool and connection events

    func connectionAvailable(_ connection: UpstreamConnection) { attach(connection) }
    func connectionFailed(_ failure: UpstreamFailure) { end(stored: false) }

    func upstreamConnected(_ connection: UpstreamConnection) {
        if connection.flush() { connection.updateInterest(wantRead: true) }
    }

    func upstreamWritable(_ connection: UpstreamConnection) {
        if connection.flush() { connection.updateInterest(wantRead: true) }
    }

    func upstreamFailed(_ connection: UpstreamConnection, _ failure: UpstreamFailure) {
        self.connection = nil
        end(stored: false)
    }

    func upstreamReadable(_ connection: UpstreamConnection) {
        switch connection.readAvailable() {
        case .failure:
            return fail(connection)
        case .success(0):
            return finishUntilClose(connection)
        case .success:
            break
        }
        readResponse(connection)
    }

    // MARK: - The response

    private func readResponse(_ connection: UpstreamConnection) {
        while response == nil {
            switch ResponseHeadParser().parse(connection.input.readable, requestMethod: requestMethod, scanned: &scanned) {
            case .incomplete: return
            case .invalid: return fail(connection)
            case .complete(let head, let consumed):
                connection.input.consume(consumed)
                scanned = 0
                if head.isInterim { continue }
                guard head.status == CacheStorability.storableStatus else { return fail(connection) }
                response = head
            }
        }
        guard let response else { return }
        let limit = cache.config.maxEntrySize
        switch response.framing {
        case .none:
            return complete(connection)
        case .contentLength(let length):
            let take = min(length - body.count, connection.input.readableCount)
            body.append(contentsOf: connection.input.readable[0..<take])
            connection.input.consume(take)
            if length > limit { return fail(connection) }
            if body.count == length { complete(connection) }
        case .chunked:
            while !connection.input.isEmpty {
                let readable = connection.input.readable
                switch chunked.decode(readable) {
                case .data(let range, let consumed):
                    body.append(contentsOf: readable[range])
                    connection.input.consume(consumed)
                    if body.count > limit { return fail(connection) }
                case .needMore(let consumed):
                    connection.input.consume(consumed)
                    return
                case .end(let consumed):
                    connection.input.consume(consumed)
                    return complete(connection)
                case .invalid:
                    return fail(connection)
                }
            }
        case .closeDelimited:
            body.append(contentsOf: connection.input.readable)
            connection.input.consume(connection.input.readableCount)
            if body.count > limit { fail(connection) }
        }
    }

    private func finishUntilClose(_ connection: UpstreamConnection) {
        readResponse(connection)
        guard let response, case .closeDelimited = response.framing, self.connection != nil else {
            if self.connection != nil { fail(connection) }
            return
        }
        discard(connection)
        end(stored: store(response))
    }

    private func complete(_ connection: UpstreamConnection) {
        guard let response else { return fail(connection) }
        self.connection = nil
        if response.keepAlive && connection.input.isEmpty {
            connection.pool.release(connection)
        } else {
            connection.owner = nil
            connection.pool.discard(connection)
        }
        end(stored: store(response))
    }

    /// True when the response was stored.
    private func store(_ response: ResponseHead) -> Bool {
        let fields = CacheResponseFields(response)
        guard !cache.wasInvalidated(operation, since: invalidationMark),
              case .store(let maxAge) = CacheStorability.judge(response, fields, for: cache),
              CacheStorability.acceptsBody(body, maxEntrySize: cache.config.maxEntrySize) else { return false }
        let entry = CacheEntry(key: key, routeLabel: cache.routeLabel, operation: operation,
                               headerBlock: fields.headerBlock(of: response), body: body,
                               isPublic: cache.scope == .public, storedAt: loop.now,
                               maxAgeNanos: UInt64(maxAge) * CompiledRouteCache.nanosPerSecond,
                               revalidateNanos: cache.revalidateNanos, staleIfErrorNanos: cache.staleIfErrorNanos)
        cache.store.put(entry, now: loop.now, via: stores)
        return true
    }

    private func fail(_ connection: UpstreamConnection) {
        discard(connection)
        end(stored: false)
    }

    private func discard(_ connection: UpstreamConnection) {
        self.connection = nil
        connection.owner = nil
        connection.pool.discard(connection)
    }

    /// The one end of a refresh; one that stored nothing makes the next wait (`CacheRefreshSchedule`).
    private func end(stored: Bool) {
        ResponseCache.process.endRefresh(key, stored: stored, now: loop.now)
        keepAlive = nil
    }
}
