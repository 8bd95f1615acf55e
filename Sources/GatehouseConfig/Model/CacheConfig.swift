/// `routes[i].cache:` — this route's responses are cached at the edge (README, "Response cache").
public struct RouteCacheConfig: Sendable, Equatable {
    /// Whose entry a response is: everyone's, one verified subject's, or one credential's.
    public enum Scope: String, Sendable, Equatable {
        case `public`
        case subject
        case credential
    }

    /// Entries larger than this are passed on, not stored, unless the route says otherwise.
    public static let defaultMaxEntrySize = 1 << 20

    /// Fresh lifetime.
    public var maxAge: Duration
    /// After `maxAge`: served stale at once while one background refresh runs.
    public var staleWhileRevalidate: Duration = .zero
    /// After `maxAge`: served stale when the upstream fails.
    public var staleIfError: Duration = .zero
    /// nil: `subject` when the route authenticates, else `public` (see `effectiveScope`).
    public var scope: Scope?
    /// Request headers that take part in the key, as written.
    public var vary: [String] = []
    public var maxEntrySize = defaultMaxEntrySize

    public init(maxAge: Duration) {
        self.maxAge = maxAge
    }

    public func effectiveScope(auth: RouteConfig.Auth) -> Scope {
        if let scope { return scope }
        if case .none = auth { return .public }
        return .subject
    }
}

/// `cache:` — process-wide settings of the response cache.
public struct CacheConfig: Sendable, Equatable {
    public static let memoryStore = "memory"
    /// The memory bound when none is written: comfortable beside a sidecar's other buffers.
    public static let defaultMaxBytes = 64 << 20

    public var maxBytes = defaultMaxBytes
    /// `memory`, or the name of a shared store.
    public var store = memoryStore
    /// Mutation name → the operations whose entries it drops when it succeeds.
    public var invalidate: [String: [String]] = [:]

    public init() {}
}
