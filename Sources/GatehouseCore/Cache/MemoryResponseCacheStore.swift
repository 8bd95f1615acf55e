import GatehouseConfig
import GatehouseIO

/// Cached responses in this process's memory, shared by every worker: a response stored by one
/// worker is a hit on all of them, and the bound is one `max_bytes` for the process (README,
/// "Response cache", on why shared beats per worker). One mutex guards the LRU; it is held for
/// a dictionary lookup and a few index moves, never while bytes are copied to a socket.
final class MemoryResponseCacheStore: ResponseCacheStore {
    let name = CacheConfig.memoryStore
    private let lru: Locked<CacheLRU>

    init(maxBytes: Int) {
        lru = Locked(CacheLRU(maxBytes: maxBytes))
    }

    var maxBytes: Int { lru.withLock { $0.maxBytes } }

    func get(_ key: CacheKey, now: UInt64, waiter: CacheLookupWaiter) -> CacheLookup {
        .answered(lru.withLock { $0.get(key, now: now) })
    }

    func put(_ entry: CacheEntry, now: UInt64, via stores: WorkerStores) {
        lru.withLock { $0.put(entry) }
    }

    func purge(_ filter: CachePurgeFilter, via stores: WorkerStores, done: @escaping @Sendable (Int?) -> Void) {
        done(lru.withLock { $0.purge(filter) })
    }

    var statistics: CacheStoreStatistics? {
        lru.withLock { CacheStoreStatistics(entries: $0.count, bytes: $0.bytes, evictions: $0.evictions) }
    }
}
