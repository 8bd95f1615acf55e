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

    init(config: RouteCacheConfig, route: RouteConfig, upstreamName: String, cache: ResponseCache) {
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
    }

    func count(_ result: CacheMetrics.Result) { counters.atomicAdd(result.rawValue, 1) }
}
