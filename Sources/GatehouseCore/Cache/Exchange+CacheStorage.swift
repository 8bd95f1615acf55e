import GatehouseHTTP
import GatehouseIO

/// The miss side: the upstream's response is judged by its head, captured as it is pumped to
/// the client, and stored once whole; the fill's followers get the entry. The hooks in the
/// response path (`Exchange+Response.swift`) call only these functions.
extension Exchange {
    /// Headers a hit never repeats from the stored response: the gateway writes its own
    /// framing, validators, freshness and request id, and cookies are never stored. Told apart
    /// by length first: every storable miss asks this of every upstream header.
    static func isUnstored(_ name: UnsafeRawBufferPointer) -> Bool {
        let named = { (candidate: StaticString) in HeaderNames.asciiCaseInsensitiveEquals(name, candidate) }
        switch name.count {
        case 3: return named("age")
        case 4: return named("date") || named("etag")
        case 7: return named("expires")
        case 10: return named("set-cookie") || named("connection") || named("keep-alive")
        case 12: return named("x-request-id")
        case 13: return named("cache-control")
        case 14: return named("content-length")
        case 16: return named("content-encoding")
        case 17: return named("transfer-encoding")
        default: return false
        }
    }

    /// The upstream answered with `response` (a final head): decides whether it may be stored.
    func cacheResponseHead(_ response: ResponseHead) {
        guard let work = cacheWork, work.stores, let cache = work.route else { return }
        guard case .store(let maxAge) = CacheStorability.judge(response, for: cache)
        else { return }
        var expected: Int?
        if case .contentLength(let length) = response.framing { expected = length }
        let block = Self.storedHeaderBlock(response)
        let capture = CacheCapture(maxAgeSeconds: maxAge, headerBlock: block, limit: cache.config.maxEntrySize,
                                   expectedLength: expected)
        work.capture = capture
    }

    /// The upstream's header lines a hit repeats, as "Name: value\r\n": measured first, then
    /// written into one allocation of that size.
    static func storedHeaderBlock(_ response: ResponseHead) -> [UInt8] {
        // Options named in `Connection` are rare: the field-by-field check runs only when there are some.
        let namesOptions = !response.connectionOptions.isEmpty
        return response.bytes.withUnsafeBytes { raw in
            let kept = { (field: HeaderField) -> Bool in
                let name = UnsafeRawBufferPointer(rebasing: raw[field.name])
                return !(isUnstored(name) || HopByHop.isHopByHop(name) || (namesOptions && response.isHopByHop(field)))
            }
            var size = 0
            for field in response.headers where kept(field) { size += field.name.count + field.value.count + 4 }
            guard size > 0 else { return [] }
            let head = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var block = [UInt8].zeroed(count: size)
            block.withUnsafeMutableBufferPointer { block in
                var at = block.baseAddress!
                for field in response.headers where kept(field) {
                    at.update(from: head + field.name.lowerBound, count: field.name.count)
                    at += field.name.count
                    at[0] = UInt8(ascii: ":")
                    at[1] = UInt8(ascii: " ")
                    at += 2
                    at.update(from: head + field.value.lowerBound, count: field.value.count)
                    at += field.value.count
                    at[0] = 0x0D
                    at[1] = 0x0A
                    at += 2
                }
            }
            return block
        }
    }

    /// The whole response reached the client: store it (a leader answers its followers), or
    /// drop the operations a successful mutation invalidates.
    func cacheResponseComplete() {
        guard let work = cacheWork else { return }
        let capture = work.capture
        work.capture = nil
        switch work.role {
        case .invalidates(let operations):
            if status == CacheStorability.storableStatus {
                ResponseCache.process.purge(.operations(operations), via: storeClients) { _ in }
            }
            cacheWork = nil
        case .leader, .refresher:
            let entry = capture.flatMap { makeEntry(work, $0) }
            if let entry, let cache = work.route { cache.store.put(entry, now: loop.now, via: storeClients) }
            endFill(work, entry)
        case .follower:
            cacheWork = nil
        }
    }

    private func makeEntry(_ work: CacheWork, _ capture: CacheCapture) -> CacheEntry? {
        guard let cache = work.route, !capture.overflowed,
              capture.bodyAccepted == true
                || CacheStorability.acceptsBody(capture.body, maxEntrySize: cache.config.maxEntrySize) else { return nil }
        return CacheEntry(key: work.key, routeLabel: cache.routeLabel, operation: work.operation,
                          headerBlock: capture.headerBlock, body: capture.body, isPublic: cache.scope == .public,
                          storedAt: loop.now,
                          maxAgeNanos: UInt64(capture.maxAgeSeconds) * CompiledRouteCache.nanosPerSecond,
                          revalidateNanos: cache.revalidateNanos, staleIfErrorNanos: cache.staleIfErrorNanos)
    }

    /// A leader's fill ends exactly once: with the entry, or with nothing (failure, abort).
    private func endFill(_ work: CacheWork, _ entry: CacheEntry?) {
        cacheWork = nil
        if case .leader = work.role, let cache = work.route { cache.fills.finish(work.key, with: entry) }
    }

    /// Every ending passes here (`record()`): a leader that did not complete releases its
    /// followers, who then go upstream themselves.
    func cacheExchangeEnded() {
        guard let work = cacheWork else { return }
        work.capture = nil
        endFill(work, nil)
    }

    /// `stale_if_error`: instead of an upstream failure (5xx, timeout, refused connection),
    /// the stale entry found by the lookup is served. True when it was.
    func serveStaleInsteadOfError(status failedStatus: Int) -> Bool {
        guard let work = cacheWork, let stale = work.stale, loop.now < stale.staleIfErrorUntil, !responseStarted else {
            return false
        }
        work.capture = nil
        work.route?.count(.stale)
        removeCacheStatusLine()
        endFill(work, stale)
        serveCached(CachedReply(entry: stale, kind: .staleOnError(status: failedStatus)))
        return true
    }
}
