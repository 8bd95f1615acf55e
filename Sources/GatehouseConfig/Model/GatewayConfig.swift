// The typed configuration: these types are the schema. The loader (YAML -> these values) refuses
// unknown keys and reports every problem with its key path; GatehouseCore compiles a validated
// GatewayConfig into the immutable snapshot the event loops serve from.

/// The whole configuration file.
public struct GatewayConfig: Sendable, Equatable {
    public var server: ServerConfig
    /// Upstreams in file order; names are unique.
    public var upstreams: [UpstreamConfig]
    /// Auth providers in file order; names are unique.
    public var auth: [AuthProviderConfig]
    public var operations: OperationsConfig?
    /// Shared stores (`stores:`) in file order; names are unique and never `memory`.
    public var stores: [StoreConfig]
    public var routes: [RouteConfig]
    /// The response cache's process-wide settings (`cache:`).
    public var cache = CacheConfig()
    /// The file the configuration came from, when it came from a file (relative paths in the
    /// config, such as `jwks_file` and `operations.dir`, are taken relative to the working directory).
    public var sourcePath: String?

    public init(server: ServerConfig = ServerConfig(), upstreams: [UpstreamConfig] = [],
                auth: [AuthProviderConfig] = [], operations: OperationsConfig? = nil,
                stores: [StoreConfig] = [], routes: [RouteConfig] = [], sourcePath: String? = nil) {
        self.server = server
        self.upstreams = upstreams
        self.auth = auth
        self.operations = operations
        self.stores = stores
        self.routes = routes
        self.sourcePath = sourcePath
    }

    public func upstream(named name: String) -> UpstreamConfig? {
        upstreams.first { $0.name == name }
    }

    public func store(named name: String) -> StoreConfig? {
        stores.first { $0.name == name }
    }

    public func authProvider(named name: String) -> AuthProviderConfig? {
        auth.first { $0.name == name }
    }
}

/// One problem found in a configuration: `path.to.key: message`, indexes counted from 0.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible, Error {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every problem of a configuration at once.
public struct ConfigErrors: Error, Sendable, CustomStringConvertible {
    public var issues: [ConfigIssue]

    public init(_ issues: [ConfigIssue]) { self.issues = issues }

    public var description: String { issues.map(\.description).joined(separator: "\n") }
}

/// An ordered header name/value pair as written in the config.
public struct HeaderSetting: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
