import GatehouseConfig
import GatehouseHTTP
import GatehouseIO

/// Everything a worker needs to serve requests under one configuration, compiled once and never
/// mutated: a reload builds a new snapshot and hands it to each worker.
public final class GatewaySnapshot: Sendable {
    public let config: GatewayConfig
    public let router: Router
    public let routes: [CompiledRoute]
    public let upstreams: [CompiledUpstream]
    public let limits: HTTPLimits
    public let headerTimeoutNanos: UInt64
    public let bodyTimeoutNanos: UInt64
    public let idleTimeoutNanos: UInt64
    public let maxBodyBytes: Int
    /// `server.request_buffer`, `server.temp_dir`, `server.min_body_rate`.
    public let requestBufferBytes: Int
    public let tempDirectory: String
    public let minBodyRate: Int
    public let trustedProxies: [CIDR]
    /// `server.tls`: the listener speaks TLS with this context (rebuilt on every reload, so
    /// rotated certificates are served to new connections).
    public let serverTLS: TLSContext?
    /// The operations held by the gateway (`operations.dir`); empty when none are configured.
    public let registry: OperationRegistry
    /// Remote JWK Sets of the configured providers (refreshed on the key thread once started).
    let keySources: [RemoteKeySource]
    /// `stores:`; each worker connects to every one (`WorkerStores`).
    let stores: [CompiledStore]

    /// Compiles `config`; returns every problem that only shows when compiling (unresolvable
    /// upstream and store hosts, unusable key sets, operation files) with its key path. Rate
    /// limits keep their state in the process's memory store, which outlives reloads, or in the
    /// shared store their route names.
    public static func compile(_ config: GatewayConfig) -> Result<GatewaySnapshot, ConfigErrors> {
        compile(config, rateLimitStore: MemoryRateLimitStore.process, rateLimitMetrics: .process)
    }

    /// Resolves upstream hosts (with `GATEHOUSE_HOSTS_FILE` first, when set).
    static let resolver: any HostResolver = SystemHostResolver()

    /// `compile` with the rate-limit store and counters given (tests bring their own).
    public static func compile(_ config: GatewayConfig, rateLimitStore: RateLimitStore,
                               rateLimitMetrics: RateLimitMetrics) -> Result<GatewaySnapshot, ConfigErrors> {
        let resolver = Self.resolver
        var issues: [ConfigIssue] = []
        var upstreams: [CompiledUpstream] = []
        for (index, upstream) in config.upstreams.enumerated() {
            let names = EndpointName.names(of: upstream)
            let unresolved = names.filter { resolver.resolve(host: $0.host, port: $0.port).isEmpty }
            guard unresolved.isEmpty else {
                issues += unresolved.map { ConfigIssue(path: $0.keyPath, message: "cannot resolve host \"\($0.host)\"") }
                continue
            }
            let addresses = EndpointName.resolve(names, with: resolver)
            var tlsContext: TLSContext?
            if upstream.url.scheme == .https {
                let tls = upstream.tls ?? UpstreamTLSConfig()
                do {
                    tlsContext = try TLSContext.client(caFile: tls.caFile, verify: tls.verify,
                                                       certFile: tls.certFile, keyFile: tls.keyFile)
                } catch {
                    issues.append(ConfigIssue(path: "upstreams.\(upstream.name).tls", message: error.message))
                    continue
                }
            }
            upstreams.append(CompiledUpstream(index: index, config: upstream, addresses: addresses, tlsContext: tlsContext))
        }
        var registry = OperationRegistry.empty
        if let operations = config.operations {
            switch OperationRegistry.load(directory: operations.dir) {
            case .success(let loaded): registry = loaded
            case .failure(let errors):
                issues += errors.issues.map { ConfigIssue(path: "operations.dir", message: $0.description) }
            }
        }
        var serverTLS: TLSContext?
        if let tls = config.server.tls {
            do {
                serverTLS = try TLSContext.server(certFile: tls.certFile, keyFile: tls.keyFile, clientCAFile: tls.clientCAFile)
            } catch {
                issues.append(ConfigIssue(path: "server.tls", message: error.message))
            }
        }
        let (stores, storeIssues) = CompiledStore.compile(config, metrics: .process)
        issues += storeIssues
        let sharedLimitStores = Dictionary(uniqueKeysWithValues: stores.map {
            ($0.config.name, RedisRateLimitStore(store: $0.config) as RateLimitStore)
        })
        let authCompiler = AuthCompiler(config: config)
        issues += authCompiler.issues
        var routes: [CompiledRoute] = []
        ResponseCache.process.configure(config.cache, stores: config.stores)
        for (index, route) in config.routes.enumerated() {
            guard let upstream = upstreams.first(where: { $0.config.name == route.upstream }) else {
                if !issues.contains(where: { $0.path.hasPrefix("upstreams.\(route.upstream)") }) {
                    issues.append(ConfigIssue(path: "routes[\(index)].upstream", message: "unknown upstream \"\(route.upstream)\""))
                }
                continue
            }
            switch authCompiler.compile(route.auth, path: "routes[\(index)].auth") {
            case .success(let auth):
                let storeName = route.rateLimits.first?.store ?? RateLimitConfig.memoryStore
                let limits = CompiledRateLimits(route: route, store: sharedLimitStores[storeName] ?? rateLimitStore,
                                                metrics: rateLimitMetrics)
                routes.append(CompiledRoute(index: index, config: route, upstream: upstream, auth: auth,
                                            registryHasOperations: !registry.isEmpty, rateLimits: limits,
                                            invalidations: config.cache.invalidate))
            case .failure(let issue):
                issues.append(issue)
            }
        }
        if !issues.isEmpty {
            var seen = Set<String>()
            return .failure(ConfigErrors(issues.filter { seen.insert($0.description).inserted }))
        }
        return .success(GatewaySnapshot(config: config, routes: routes, upstreams: upstreams, registry: registry,
                                        serverTLS: serverTLS, keySources: authCompiler.keySources, stores: stores))
    }

    private init(config: GatewayConfig, routes: [CompiledRoute], upstreams: [CompiledUpstream],
                 registry: OperationRegistry, serverTLS: TLSContext?, keySources: [RemoteKeySource],
                 stores: [CompiledStore]) {
        self.config = config
        self.keySources = keySources
        self.stores = stores
        self.serverTLS = serverTLS
        self.registry = registry
        self.routes = routes
        self.upstreams = upstreams
        router = Router(routes: routes)
        let server = config.server
        limits = HTTPLimits(maxRequestLine: server.maxRequestLine, maxHeaderBytes: server.maxHeaderBytes,
                            maxHeaders: server.maxHeaders)
        headerTimeoutNanos = UInt64(server.headerTimeout.nanoseconds)
        bodyTimeoutNanos = UInt64(server.bodyTimeout.nanoseconds)
        idleTimeoutNanos = UInt64(server.idleTimeout.nanoseconds)
        maxBodyBytes = server.maxBodyBytes
        requestBufferBytes = server.requestBuffer
        tempDirectory = server.tempDirectory
        minBodyRate = server.minBodyRate
        trustedProxies = server.trustedProxies
    }
}
