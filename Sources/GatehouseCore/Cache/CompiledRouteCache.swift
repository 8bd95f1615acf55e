import GatehouseConfig

/// A route's `cache:` compiled for the hot path: lifetimes in nanoseconds, the scope decided,
/// `vary` names lowercased, and the store and counters it uses.
final class CompiledRouteCache: Sendable {
    static let nanosPerSecond: UInt64 = 1_000_000_000

    let config: RouteCacheConfig
    let scope: RouteCacheConfig.Scope
    let routeLabel: String
    let upstreamName: String
    /// Route and upstream as key material: the start of every key of this route.
    let keyRoutePart: CacheKeyMaterial
    /// Lowercased, in the order written.
    let varyNames: [String]
    let maxAgeSeconds: Int
    let revalidateNanos: UInt64
    let staleIfErrorNanos: UInt64
    let store: ResponseCacheStore
    let fills: CacheFills
    let counters: AtomicCounters
    /// The operations a mutation may drop (every `cache.invalidate` list): only their fills note
    /// the invalidation count (`CacheInvalidationCounts`).
    let invalidatedOperations: Set<String>
    let invalidationCounts: CacheInvalidationCounts

    init(config: RouteCacheConfig, route: RouteConfig, upstreamName: String, cache: ResponseCache,
         invalidatedOperations: Set<String> = []) {
        self.config = config
        scope = config.effectiveScope(auth: route.auth)
        routeLabel = route.path
        self.upstreamName = upstreamName
        keyRoutePart = CacheKeyBuilder.routePart(route: route.path, upstream: upstreamName)
        varyNames = config.vary.map { $0.lowercased() }
        maxAgeSeconds = Int(config.maxAge.nanoseconds / Int64(Self.nanosPerSecond))
        revalidateNanos = UInt64(config.staleWhileRevalidate.nanoseconds)
        staleIfErrorNanos = UInt64(config.staleIfError.nanoseconds)
        store = cache.store
        fills = cache.fills
        counters = cache.metrics.counters(route: route.path)
        self.invalidatedOperations = invalidatedOperations
        invalidationCounts = cache.invalidationCounts
    }

    /// For a fill of `operation` going upstream: the count to compare when it would store, nil
    /// when no mutation drops the operation.
    func invalidationMark(for operation: String) -> UInt64? {
        guard !invalidatedOperations.isEmpty, invalidatedOperations.contains(operation) else { return nil }
        return invalidationCounts.count(of: operation)
    }

    /// Whether a mutation dropped `operation`'s entries since `mark` was taken.
    func wasInvalidated(_ operation: String, since mark: UInt64?) -> Bool {
        guard let mark else { return false }
        return invalidationCounts.count(of: operation) != mark
    }

    func count(_ result: CacheMetrics.Result) { counters.atomicAdd(result.rawValue, 1) }
}
