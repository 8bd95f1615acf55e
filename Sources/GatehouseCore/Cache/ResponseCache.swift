import GatehouseConfig
import GatehouseGraphQL
import GatehouseIO

/// The process's response cache: its store, the fills in flight, the refreshes running and the
/// counters. One per process (shared by every worker: README, "Response cache"); a reload that
/// keeps `cache.max_bytes` and `cache.store` keeps the entries.
final class ResponseCache: Sendable {
    static let process = ResponseCache()

    private struct State {
        var store: ResponseCacheStore?
        var maxBytes = 0
    }

    private let state = Locked(State())
    let fills = CacheFills()
    let invalidationCounts = CacheInvalidationCounts()
    let metrics = CacheMetrics()
    /// Keys whose background refresh runs or pauses after a failure.
    private let refreshes = Locked(CacheRefreshSchedule())

    init() {}

    /// Sets the store for a configuration being compiled: `cache.store` names `memory` (a changed
    /// bound starts empty) or one of `stores` (entries stay in Redis whatever this process does).
    func configure(_ config: CacheConfig, stores: [StoreConfig]) {
        let shared = stores.first { $0.name == config.store }
        state.withLock { state in
            if let shared {
                if (state.store as? RedisResponseCacheStore)?.config != shared {
                    state.store = RedisResponseCacheStore(store: shared)
                }
            } else if !(state.store is MemoryResponseCacheStore) || state.maxBytes != config.maxBytes {
                state.store = MemoryResponseCacheStore(maxBytes: config.maxBytes)
            }
            state.maxBytes = config.maxBytes
        }
    }

    var store: ResponseCacheStore {
        state.withLock { state in
            if let store = state.store { return store }
            let created = MemoryResponseCacheStore(maxBytes: CacheConfig.defaultMaxBytes)
            state.store = created
            state.maxBytes = CacheConfig.defaultMaxBytes
            return created
        }
    }

    // MARK: - Background refreshes

    /// True when the caller may start the one refresh of `key` (none running or pausing after a
    /// failure, or the running one outlived `until`).
    func beginRefresh(_ key: CacheKey, now: UInt64, until: UInt64) -> Bool {
        refreshes.withLock { $0.begin(key, now: now, until: until) }
    }

    /// The refresh ended: with a stored entry, or with nothing (`CacheRefreshSchedule`).
    func endRefresh(_ key: CacheKey, stored: Bool, now: UInt64) {
        refreshes.withLock { stored ? $0.succeeded(key) : $0.failed(key, now: now) }
    }

    // MARK: - Purge and status

    func purge(_ filter: CachePurgeFilter, via stores: WorkerStores, done: @escaping @Sendable (Int?) -> Void) {
        store.purge(filter, via: stores, done: done)
    }

    /// For `GET /status`: `{"store":"memory","shared":false,"entries":N,"bytes":N,"max_bytes":N,
    /// "evictions":N}`. A Redis store is `"shared":true` with the counts null: they live in Redis,
    /// shared by every replica, and no one process can tell them.
    func statusJSON() -> JSONValue {
        let store = self.store
        let statistics = store.statistics
        let maxBytes = state.withLock { $0.maxBytes }
        let count: (Int?) -> JSONValue = { $0.map { .number(String($0)) } ?? .null }
        return .object(JSONObject([
            ("store", .string(store.name)),
            ("shared", .bool(statistics == nil)),
            ("entries", count(statistics?.entries)),
            ("bytes", count(statistics?.bytes)),
            ("max_bytes", count(statistics == nil ? nil : maxBytes)),
            ("evictions", count(statistics?.evictions)),
        ]))
    }
}
