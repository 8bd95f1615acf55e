import GatehouseHTTP
import GatehouseIO

/// The miss side: the upstream's response is judged by its head, captured as it is pumped to
/// the client, and stored once whole; the fill's followers get the entry. The hooks in the
/// response path (`Exchange+Response.swift`) call only these functions.
extension Exchange {
    /// The upstream answered with `response` (a final head): decides whether it may be stored.
    func cacheResponseHead(_ response: borrowing ResponseHead) {
        guard let work = cacheWork else { return }
        if case .invalidates = work.role {
            if response.status == CacheStorability.storableStatus { work.mutationAnswer = MutationAnswer() }
            return
        }
        guard work.stores, let cache = work.route else { return }
        let fields = CacheResponseFields(response)
        guard case .store(let maxAge) = CacheStorability.judge(response, fields, for: cache) else { return }
        var expected: Int?
        if case .contentLength(let length) = response.framing { expected = length }
        work.capture = CacheCapture(maxAgeSeconds: maxAge, fields: fields, of: response, limit: cache.config.maxEntrySize,
                                    expectedLength: expected)
    }

    /// The whole response reached the client: store it (a leader answers its followers), or
    /// drop the operations a successful mutation invalidates.
    func cacheResponseComplete() {
        guard let work = cacheWork else { return }
        // Moved out, not copied: the entry takes over the captured bytes.
        var capture = work.capture.take()
        switch work.role {
        case .invalidates(let operations):
            if status == CacheStorability.storableStatus, work.mutationAnswer?.mayHaveChangedData ?? true {
                // Counted first: a fill already upstream then stores nothing it read before.
                ResponseCache.process.invalidationCounts.record(operations)
                ResponseCache.process.purge(.operations(operations), via: storeClients) { _ in }
            }
            cacheWork = nil
        case .leader, .refresher:
            let entry = makeEntry(work, &capture)
            if let entry, let cache = work.route { cache.store.put(entry, now: loop.now, via: storeClients) }
            endFill(work, entry)
        case .follower:
            cacheWork = nil
        }
    }

    private func makeEntry(_ work: CacheWork, _ captured: inout CacheCapture?) -> CacheEntry? {
        guard let cache = work.route, var capture = captured.take(), !capture.overflowed,
              !cache.wasInvalidated(work.operation, since: work.invalidationMark),
              capture.bodyAccepted == true
                || capture.withBody({ CacheStorability.acceptsBody($0, maxEntrySize: cache.config.maxEntrySize) })
        else { return nil }
        return CacheEntry(key: work.key, routeLabel: cache.routeLabel, operation: work.operation,
                          bytes: capture.takeEntryBytes(), headerBlockCount: capture.headerBlockCount,
                          isPublic: cache.scope == .public, storedAt: loop.now,
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
        cacheStatusLine = nil  // the stale answer writes its own
        endFill(work, stale)
        serveCached(CachedReply(entry: stale, kind: .staleOnError(status: failedStatus)))
        return true
    }
}
