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
}

/// The exchange waiting for a store that answered `.pending`.
protocol CacheLookupWaiter: AnyObject {
    func cacheLookupFinished(_ entry: CacheEntry?)
}

/// What the store holds, for `/status` and the gauges.
struct CacheStoreStatistics: Equatable, Sendable {
    var entries: Int
    var bytes: Int
}

/// Where cached responses live. The memory store answers every call at once; a store that
/// needs a round trip returns `.pending` from `get` and calls the waiter on the caller's loop,
/// and writes (`put`, `delete`, `purge`) may complete later — nobody waits for them.
protocol ResponseCacheStore: AnyObject, Sendable {
    /// Store name as the config writes it (`memory`).
    var name: String { get }
    func get(_ key: CacheKey, now: UInt64, waiter: CacheLookupWaiter) -> CacheLookup
    func put(_ entry: CacheEntry, now: UInt64)
    func delete(_ key: CacheKey)
    /// Drops the matching entries; `done` receives how many (on any thread).
    func purge(_ filter: CachePurgeFilter, done: @escaping @Sendable (Int) -> Void)
    var statistics: CacheStoreStatistics { get }
    /// Entries dropped to stay within the memory bound, since the process started.
    var evictions: Int { get }
}
