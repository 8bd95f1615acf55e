import GatehouseHTTP
import GatehouseIO

/// The cache's decision once the store answered: a hit is served, a stale entry within
/// `stale_while_revalidate` is served and refreshed once, a miss leads or follows a fill.
extension Exchange: CacheLookupWaiter {
    func cacheLookupFinished(_ entry: CacheEntry?) {
        guard let lookup = cacheLookup.take(), let answer = lookup.pending else { return }
        answer.complete(decideCache(with: entry, lookup))
    }

    func decideCache(with entry: CacheEntry?, _ lookup: borrowing CacheLookupState) -> PhaseResult {
        let cache = lookup.cache
        let now = loop.now
        if let entry, lookup.policy != .serverOnly {
            if entry.isFresh(at: now) {
                cache.count(.hit)
                return .serve(CachedReply(entry: entry, kind: .hit))
            }
            if now < entry.revalidateUntil {
                cache.count(.stale)
                BackgroundRefresh.start(for: self, cache: cache, key: lookup.key, operation: lookup.operation)
                return .serve(CachedReply(entry: entry, kind: .staleWhileRevalidate))
            }
        }
        let stale = entry.flatMap { now < $0.staleIfErrorUntil ? $0 : nil }
        switch lookup.policy {
        case .cacheOnly:
            cache.count(.miss)
            cacheStatusLine = CacheStatusLine(forward: .onlyIfCached)
            return .respond(GatewayError(.cacheMiss, CachePhase.nothingCachedMessage))
        case .serverOnly:
            cache.count(.miss)
            cacheWork = CacheWork(route: cache, key: lookup.key, operation: lookup.operation, role: .refresher, stale: stale)
            cacheStatusLine = CacheStatusLine(forward: .request)
            return .next
        case .preferCache, .bypass:
            return joinFill(cache: cache, lookup: lookup, stale: stale)
        }
    }

    /// The first miss for a key goes upstream; the others wait for its answer.
    private func joinFill(cache: CompiledRouteCache, lookup: borrowing CacheLookupState, stale: CacheEntry?) -> PhaseResult {
        var created: CacheFills.Follower?
        let role = cache.fills.join(lookup.key) {
            // Only a follower waits, so only a follower allocates its answer.
            let follower = CacheFills.Follower(loop: loop, answer: PendingAnswer()) { [unowned(unsafe) self] entry in
                collapsedFillFinished(entry)
            }
            created = follower
            return follower
        }
        switch role {
        case .leader:
            cache.count(.miss)
            cacheWork = CacheWork(route: cache, key: lookup.key, operation: lookup.operation, role: .leader, stale: stale)
            cacheStatusLine = CacheStatusLine(forward: .miss)
            return .next
        case .follower:
            guard let follower = created else { return .next }
            cacheWork = CacheWork(route: cache, key: lookup.key, operation: lookup.operation, role: .follower(follower),
                                  stale: stale)
            let fills = cache.fills
            let key = lookup.key
            follower.answer.onCancel = { fills.leave(key, follower) }
            return .wait(.answer(follower.answer))
        }
    }

    /// On this exchange's loop, only while it still waits (`CacheFills.finish` checks).
    private func collapsedFillFinished(_ entry: CacheEntry?) {
        guard let work = cacheWork, case .follower(let follower) = work.role, let cache = work.route else { return }
        if let entry {
            cache.count(.collapsed)
            follower.answer.complete(.serve(CachedReply(entry: entry, kind: .collapsed)))
        } else {
            // The leader's response was not stored: this request goes upstream itself.
            work.role = .refresher
            cacheStatusLine = CacheStatusLine(forward: .miss)
            follower.answer.complete(.next)
        }
    }
}
