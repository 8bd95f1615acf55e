import GatehouseConfig
import GatehouseGraphQL
import Synchronization

/// The process's response cache: its store, the fills in flight, the refreshes running and the
/// counters. One per process (shared by every worker: README, "Response cache"); a reload that
/// keeps `cache.max_bytes` and `cache.store` keeps the entries.
final class ResponseCache: Sendable {
    static let process = ResponseCache()

    private struct State {
        var store: ResponseCacheStore?
        var maxBytes = 0
    }

    private let state = Mutex(State())
    let fills = CacheFills()
    let metrics = CacheMetrics()
    /// Keys whose background refresh runs, with the time it may be considered lost.
    private let refreshing = Mutex<[CacheKey: UInt64]>([:])

    init() {}

    /// Sets the store for a configuration being compiled (a changed bound starts empty).
    func configure(_ config: CacheConfig) {
        state.withLock { state in
            if state.store == nil || state.maxBytes != config.maxBytes {
                state.store = MemoryResponseCacheStore(maxBytes: config.maxBytes)
                state.maxBytes = config.maxBytes
            }
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

    /// True when the caller may start the one refresh of `key` (none running, or the running
    /// one outlived `until`).
    func beginRefresh(_ key: CacheKey, now: UInt64, until: UInt64) -> Bool {
        refreshing.withLock { map in
            if let deadline = map[key], deadline > now { return false }
            map[key] = until
            return true
        }
    }

    func endRefresh(_ key: CacheKey) {
        _ = refreshing.withLock { $0.removeValue(forKey: key) }
    }

    // MARK: - Purge and status

    func purge(_ filter: CachePurgeFilter, done: @escaping @Sendable (Int) -> Void) {
        store.purge(filter, done: done)
    }

    /// For `GET /status`: `{"store":"memory","entries":N,"bytes":N,"max_bytes":N,"evictions":N}`.
    func statusJSON() -> JSONValue {
        let store = self.store
        let statistics = store.statistics
        let maxBytes = state.withLock { $0.maxBytes }
        return .object(JSONObject([
            ("store", .string(store.name)),
            ("entries", .number(String(statistics.entries))),
            ("bytes", .number(String(statistics.bytes))),
            ("max_bytes", .number(String(maxBytes))),
            ("evictions", .number(String(store.evictions))),
        ]))
    }
}
