import GatehouseConfig

/// A route's limits, split by the stage that checks them, and the store holding their state.
struct CompiledRateLimits: Sendable {
    let beforeAuthentication: [CompiledRateLimit]
    let afterAuthentication: [CompiledRateLimit]
    /// The store of the route's limits (the config decoder makes every limit of a route name
    /// the same one), so a stage is one call: one Redis round trip for a shared store.
    let store: RateLimitStore

    static let none = CompiledRateLimits(beforeAuthentication: [], afterAuthentication: [],
                                         store: MemoryRateLimitStore.process)

    init(route: RouteConfig, store: RateLimitStore, metrics: RateLimitMetrics) {
        let limits = route.rateLimits.map { CompiledRateLimit(config: $0, routeLabel: route.path, metrics: metrics) }
        self.init(beforeAuthentication: limits.filter { $0.stage == .beforeAuthentication },
                  afterAuthentication: limits.filter { $0.stage == .afterAuthentication }, store: store)
    }

    private init(beforeAuthentication: [CompiledRateLimit], afterAuthentication: [CompiledRateLimit],
                 store: RateLimitStore) {
        self.beforeAuthentication = beforeAuthentication
        self.afterAuthentication = afterAuthentication
        self.store = store
    }

    var isEmpty: Bool { beforeAuthentication.isEmpty && afterAuthentication.isEmpty }

    func limits(for stage: RateLimitStage) -> [CompiledRateLimit] {
        switch stage {
        case .beforeAuthentication: return beforeAuthentication
        case .afterAuthentication: return afterAuthentication
        }
    }
}
