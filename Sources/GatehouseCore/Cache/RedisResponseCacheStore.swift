import CLinux
import GatehouseConfig
import GatehouseIO

/// Cached responses in a Redis store (`cache.store: <a stores: entry>`), shared by every replica:
/// what one gateway stored is a hit on the others (README, "Response cache"). Each call goes out
/// on the calling worker's own connection to the store (`WorkerStores`); a lookup is one `GET`
/// answered on that worker's loop, a store one script sent and forgotten (failures are counted
/// by the store's metrics), a purge one script (`RedisCacheKeys`).
///
/// A store marked down (3 failures in a row, probed with backoff by the client) is not asked:
/// the lookup answers `.unavailable` at once and the request bypasses the cache; a command in
/// flight when Redis goes quiet fails within the store's `timeout`. Collapsing of concurrent
/// misses stays in this process (`CacheFills`).
final class RedisResponseCacheStore: ResponseCacheStore {
    let name: String
    let config: StoreConfig
    let keys: RedisCacheKeys
    /// The store's metrics: values that cannot be decoded are counted there as `get` errors
    /// without counting against the store's health (Redis answered; the value was bad).
    let series: StoreMetrics.Series

    static let undecodableReason = "a cached value could not be decoded (treated as a miss)"

    init(store: StoreConfig, metrics: StoreMetrics = .process) {
        name = store.name
        config = store
        keys = RedisCacheKeys(storePrefix: store.prefix)
        series = metrics.series(for: store)
    }

    /// Wall-clock nanoseconds since the Unix epoch: what two replicas agree on (the codec).
    static var wallNow: UInt64 { UInt64(max(0, gh_realtime_ns())) }

    func get(_ key: CacheKey, now: UInt64, waiter: CacheLookupWaiter) -> CacheLookup {
        guard let client = waiter.storeClients.client(named: name) else { return .unavailable }
        let failure = client.get(keys.entry(key)) { [self] result in
            switch result {
            case .success(let value):
                waiter.cacheLookupFinished(entry(from: value, key: key, now: client.loop.now, wallNow: Self.wallNow))
            case .failure:
                waiter.cacheLookupUnavailable()
            }
        }
        return failure == nil ? .pending : .unavailable
    }

    /// What a `GET` reply means: nothing stored, an entry, or a value past its lifetime or
    /// unreadable — both misses; an unreadable one is counted.
    func entry(from value: [UInt8]?, key: CacheKey, now: UInt64, wallNow: UInt64) -> CacheEntry? {
        guard let value else { return nil }
        switch RedisCacheEntryCodec.decode(value, key: key, now: now, wallNow: wallNow) {
        case .entry(let entry): return entry
        case .expired: return nil
        case .invalid:
            series.recordError(StoreMetrics.Operation.get.label, reason: Self.undecodableReason)
            return nil
        }
    }

    func put(_ entry: CacheEntry, now: UInt64, via stores: WorkerStores) {
        guard let client = stores.client(named: name) else { return }
        let value = RedisCacheEntryCodec.encode(entry, now: now, wallNow: Self.wallNow)
        // A refused command (store down) was counted by the client; nobody waits for a store.
        _ = client.send(keys.storeCommand(entry, value: value), op: StoreMetrics.Operation.set.label) { result in
            if case .success(.error(let text)) = result {
                client.reportFailure(op: StoreMetrics.Operation.set.label, reason: "storing a cached response failed: \(text)")
            }
        }
    }

    func purge(_ filter: CachePurgeFilter, via stores: WorkerStores, done: @escaping @Sendable (Int?) -> Void) {
        guard let client = stores.client(named: name) else { return done(nil) }
        let failure = client.send(keys.purgeCommand(filter), op: StoreMetrics.Operation.del.label) { result in
            switch result {
            case .success(.integer(let count)):
                done(Int(count))
            case .success(let reply):
                client.reportFailure(op: StoreMetrics.Operation.del.label, reason: "purging the cache failed: \(reply)")
                done(nil)
            case .failure:
                done(nil)
            }
        }
        if failure != nil { done(nil) }
    }

    /// Entries and bytes live in Redis, shared with the other replicas: no one process counts them.
    var statistics: CacheStoreStatistics? { nil }
}
