/// `stores.NAME:` — shared state outside the process (Redis), which limits (`rate_limit[].store`)
/// and the response cache (`cache.store`) name instead of `memory`.
public struct StoreConfig: Sendable, Equatable {
    /// What a limit does while its store cannot answer.
    public enum FailurePolicy: String, Sendable, Equatable, CaseIterable {
        /// Decide with this process's memory: limits are enforced per replica until Redis is back.
        case local
        /// Allow every request.
        case open
        /// Refuse with 503 UNAVAILABLE (retryable).
        case closed
    }

    /// The only store type so far.
    public static let redisType = "redis"
    public static let defaultPrefix = "gatehouse:"
    /// A command answered slower than this counts as a failure: a limit check must cost a request
    /// little more than a round trip inside the data centre.
    public static let defaultTimeout: Duration = .milliseconds(50)

    public var name: String
    public var url: RedisURL
    /// `password:` when given, else the url's.
    public var password: String?
    /// Put in front of every key, so several deployments can share one Redis.
    public var prefix: String
    public var timeout: Duration
    public var onFailure: FailurePolicy

    public init(name: String, url: RedisURL, password: String? = nil, prefix: String = defaultPrefix,
                timeout: Duration = defaultTimeout, onFailure: FailurePolicy = .local) {
        self.name = name
        self.url = url
        self.password = password ?? url.password
        self.prefix = prefix
        self.timeout = timeout
        self.onFailure = onFailure
    }
}

/// `redis://[:password@]host:port[/db]`.
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    /// Redis's own default port.
    public static let defaultPort = 6379

    public var host: String
    public var port: Int
    public var password: String?
    public var database: Int

    public init(host: String, port: Int = defaultPort, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.password = password
        self.database = database
    }

    /// The url without its password, for logs and `/status`.
    public var description: String {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return "redis://\(authority)/\(database)"
    }
}
