import GatehouseConfig
import GatehouseHTTP

/// A route compiled for the hot path: match bytes, allowed methods and the header block the
/// gateway injects, all precomputed once per configuration.
public final class CompiledRoute: Sendable {
    public let index: Int
    public let config: RouteConfig
    /// The route path as written (metrics and log label).
    public let label: String
    public let isPrefix: Bool
    /// The exact path, or the prefix including its trailing "/".
    public let matchBytes: [UInt8]
    public let methods: [[UInt8]]
    public let allow: [String]
    public let upstreamIndex: Int
    /// The upstream path for exact routes; the base the remainder is appended to for prefix routes.
    public let upstreamBase: [UInt8]
    public let timeoutNanos: UInt64
    /// `stream_idle_timeout`: how long a streamed response (SSE, multipart/mixed) may be silent.
    public let streamIdleTimeoutNanos: UInt64
    /// Lowercased names of client headers never forwarded on this route: everything the gateway
    /// sets itself plus `headers.remove`.
    public let droppedHeaderNames: [[UInt8]]
    /// "Name: value\r\n" lines for upstream `headers` and route `headers.set`, in that order,
    /// with `headers.remove` applied.
    public let injectedHeaderBlock: [UInt8]
    let auth: CompiledAuth
    /// Claims copied into upstream headers: (header name, claim name).
    public let claimHeaders: [(name: String, claim: String)]
    public let operationPolicy: OperationPolicy
    /// Whether requests are read by the operation policy before they are forwarded (README, "Persisted operations":
    /// only when the route needs it). `persisted: allow` without an allow-list has nothing to
    /// resolve when the gateway holds no operations, so such routes stream untouched.
    public let inspectsRequests: Bool
    public let mapGraphQLErrors: Bool
    /// `request_buffering: false`: the body streams upstream as it arrives.
    public let streamsRequestBody: Bool
    /// The route's own `max_body_bytes`; nil keeps the server's (`bodyLimit(server:)`).
    let ownMaxBodyBytes: Int?
    /// `rate_limit`, by stage.
    let rateLimits: CompiledRateLimits
    /// `cache`, compiled; nil when the route caches nothing.
    let cache: CompiledRouteCache?
    /// `cache.invalidate`: a successful mutation named here drops those operations' entries
    /// (empty on routes that neither cache nor read their requests).
    let invalidations: [String: [String]]
    /// `websocket`: upgrades on this route are tunnelled; nil drops `Upgrade` as hop-by-hop.
    public let webSocket: WebSocketConfig?

    init(index: Int, config: RouteConfig, upstream: CompiledUpstream, auth: CompiledAuth, registryHasOperations: Bool,
         rateLimits: CompiledRateLimits = .none, invalidations: [String: [String]] = [:],
         responseCache: ResponseCache = .process) {
        self.index = index
        self.config = config
        label = config.path
        isPrefix = config.isPrefix
        matchBytes = Array(config.matchPath.utf8)
        methods = config.methods.map { Array($0.utf8) }
        allow = config.methods
        upstreamIndex = upstream.index
        upstreamBase = Array((config.upstreamPath ?? upstream.config.url.path).utf8)
        timeoutNanos = UInt64((config.timeout ?? upstream.config.timeout).nanoseconds)
        streamIdleTimeoutNanos = UInt64(config.streamIdleTimeout.nanoseconds)
        self.auth = auth
        claimHeaders = auth.claimHeaders
        operationPolicy = OperationPolicy(route: config, upstream: upstream.config)
        inspectsRequests = operationPolicy.inspectsRequests
            && (config.persisted == .only || config.operations != nil || upstream.config.kind == .aem || registryHasOperations)
        mapGraphQLErrors = config.mapGraphQLErrors
        streamsRequestBody = !config.requestBuffering
        ownMaxBodyBytes = config.maxBodyBytes
        self.rateLimits = rateLimits
        cache = config.cache.map {
            CompiledRouteCache(config: $0, route: config, upstreamName: upstream.config.name, cache: responseCache,
                               invalidatedOperations: Set(invalidations.values.joined()))
        }
        // Only where the operation is known without reading more than the route already does:
        // cached routes and routes whose policy reads the request.
        self.invalidations = config.cache != nil || inspectsRequests ? invalidations : [:]
        webSocket = config.websocket

        let removed = Set(config.headersRemove.map { $0.lowercased() })
        var lines: [(String, String)] = []
        for header in upstream.config.headers + config.headersSet {
            lines.removeAll { $0.0.lowercased() == header.name.lowercased() }
            lines.append((header.name, header.value))
        }
        lines.removeAll { removed.contains($0.0.lowercased()) }
        var block: [UInt8] = []
        for (name, value) in lines {
            block.append(contentsOf: "\(name): \(value)\r\n".utf8)
        }
        injectedHeaderBlock = block

        var dropped = Set(["host", "x-forwarded-for", "x-forwarded-proto", "x-request-id", "content-length",
                           "transfer-encoding", "connection", "keep-alive", "proxy-connection", "te", "trailer",
                           "upgrade", "expect", "traceparent"])
        dropped.formUnion(removed)
        // The gateway offers its own subprotocol list and negotiates no extension.
        if config.websocket != nil { dropped.formUnion(["sec-websocket-protocol", "sec-websocket-extensions"]) }
        dropped.formUnion(upstream.config.headers.map { $0.name.lowercased() })
        dropped.formUnion(config.headersSet.map { $0.name.lowercased() })
        dropped.formUnion(auth.claimHeaders.map { $0.name.lowercased() })
        droppedHeaderNames = dropped.sorted().map { Array($0.utf8) }
    }

    /// The body limit on this route: its own `max_body_bytes` replaces the server's, larger or
    /// smaller (an upload route raises it; a small mutation route lowers it).
    func bodyLimit(server: Int) -> Int {
        ownMaxBodyBytes ?? server
    }

    /// True when `method` is listed for this route.
    @inline(__always)
    func allows(method: UnsafeRawBufferPointer) -> Bool {
        methods.contains { $0.equals(method) }
    }
}

extension Duration {
    /// Whole nanoseconds (negative durations count as zero).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
