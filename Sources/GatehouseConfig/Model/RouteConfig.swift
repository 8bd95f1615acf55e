/// `routes[i]:` — a door: which requests it takes, who may pass, and where they go.
public struct RouteConfig: Sendable, Equatable {
    public enum Auth: Sendable, Equatable {
        /// `auth: none`, written out.
        case none
        /// One or more provider names; any one of them suffices.
        case anyOf([String])
    }

    public enum Persisted: String, Sendable, Equatable {
        case off
        case allow
        case only
    }

    /// The path as written: `/graphql` (exact) or `/content/*` (prefix).
    public var path: String
    /// Default ["GET", "POST"].
    public var methods: [String] = ["GET", "POST"]
    public var upstream: String
    /// nil: the upstream URL's path (exact routes) or that path plus the remainder (prefix routes).
    public var upstreamPath: String?
    public var auth: Auth
    public var persisted: Persisted = .allow
    /// Optional allow-list of operation names on this route.
    public var operations: [String]?
    /// nil: the upstream's `timeout`.
    public var timeout: Duration?
    public var headersSet: [HeaderSetting] = []
    public var headersRemove: [String] = []
    public var mapGraphQLErrors = false
    /// false: the request body streams to the upstream as it arrives (uploads), held to
    /// `server.min_body_rate`, instead of being read whole first.
    public var requestBuffering = true
    /// Every one must allow a request (`rate_limit:`), in file order.
    public var rateLimits: [RateLimitConfig] = []
    /// Responses cached at the edge (`cache:`); nil: none.
    public var cache: RouteCacheConfig?
    /// nil: `server.max_body_bytes`.
    public var maxBodyBytes: Int?
    /// Set: WebSocket upgrades are tunnelled; nil: `Upgrade` is dropped as a hop-by-hop header.
    public var websocket: WebSocketConfig?
    /// Set: GraphQL multipart requests (file uploads) are accepted and streamed.
    public var uploads: UploadsConfig?
    /// How long a streamed response (SSE, multipart/mixed) may stay silent before it is closed.
    public var streamIdleTimeout: Duration = Self.defaultStreamIdleTimeout

    public static let defaultStreamIdleTimeout: Duration = .seconds(5 * 60)

    public init(path: String, upstream: String, auth: Auth) {
        self.path = path
        self.upstream = upstream
        self.auth = auth
    }

    /// True for `…/*` routes.
    public var isPrefix: Bool { path.hasSuffix("/*") }

    /// The path without the trailing `*` for prefix routes (`/content/` for `/content/*`).
    public var matchPath: String { isPrefix ? String(path.dropLast()) : path }
}
