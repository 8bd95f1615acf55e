/// Which entries a purge drops.
enum CachePurgeFilter: Equatable, Sendable {
    case all
    /// Every entry of the route written so (`/ops/*`).
    case route(String)
    /// Every entry of these operations, on any route.
    case operations([String])

    func matches(_ entry: CacheEntry) -> Bool {
        switch self {
        case .all: return true
        case .route(let label): return entry.routeLabel == label
        case .operations(let names): return names.contains(entry.operation)
        }
    }
}

/// A store's answer to a lookup.
enum CacheLookup {
    /// Known at once (nil: nothing stored under the key).
    case answered(CacheEntry?)
    /// The store asked elsewhere (a Redis round trip); it calls the waiter on its loop later.
    case pending
    /// The store cannot be asked (marked down, not connected): the request bypasses the cache.
    case unavailable
}

/// The exchange waiting for a store that answered `.pending`.
protocol CacheLookupWaiter: AnyObject {
    func cacheLookupFinished(_ entry: CacheEntry?)
    /// The store failed to answer (timeout, connection lost): the request bypasses the cache.
    func cacheLookupUnavailable()
    /// The connections to the stores of the worker the waiter runs on (a store asks on these).
    var storeClients: WorkerStores { get }
}

/// What the store holds, for `/status` and the gauges.
struct CacheStoreStatistics: Equatable, Sendable {
    var entries: Int
    var bytes: Int
    /// Entries dropped to stay within the memory bound, since the process started.
    var evictions: Int
}

/// Where cached responses live. The memory store answers every call at once; a store that
/// needs a round trip returns `.pending` from `get` and calls the waiter on the caller's loop,
/// and writes (`put`, `purge`) may complete later — nobody but an admin purge waits for them.
/// Every call runs on a worker's loop and names that worker's store connections (`via`).
protocol ResponseCacheStore: AnyObject, Sendable {
    /// Store name as the config writes it (`memory`, or a `stores:` entry's name).
    var name: String { get }
    func get(_ key: CacheKey, now: UInt64, waiter: CacheLookupWaiter) -> CacheLookup
    func put(_ entry: CacheEntry, now: UInt64, via stores: WorkerStores)
    /// Drops the matching entries; `done` receives how many (on any thread), or nil when the
    /// store could not be asked.
    func purge(_ filter: CachePurgeFilter, via stores: WorkerStores, done: @escaping @Sendable (Int?) -> Void)
    /// What the store holds, or nil when this process cannot know (a shared store's entries
    /// are counted by Redis, not by any one replica).
    var statistics: CacheStoreStatistics? { get }
}
