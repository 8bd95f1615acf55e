/// `upstreams.<name>:` — a backend the gateway forwards to.
public struct UpstreamConfig: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// A GraphQL server answering POST JSON.
        case graphql
        /// An Adobe AEM style persisted-query backend (`GET /graphql/execute.json/<config>/<name>;k=v`).
        case aem
    }

    public var name: String
    public var url: UpstreamURL
    public var kind: Kind = .graphql
    public var connectTimeout: Duration = .seconds(2)
    /// Default request timeout for routes to this upstream.
    public var timeout: Duration = .seconds(30)
    /// Per worker.
    public var maxConnections = 256
    /// Idle keep-alive connections kept per worker.
    public var maxIdle = 64
    /// Set on every request to this upstream, in file order.
    public var headers: [HeaderSetting] = []
    public var tls: UpstreamTLSConfig?
    /// For `kind: aem`: persisted queries live at `/graphql/execute.json/<aemConfig>/<name>`.
    public var aemConfig: String?
    /// Explicit endpoints; empty: every address the url's host resolves to.
    public var endpoints: [UpstreamURL] = []
    /// nil: names are resolved once, when the configuration is loaded.
    public var resolveInterval: Duration?
    public var balance: BalanceStrategy = .roundRobin
    public var healthCheck: HealthCheckConfig?
    /// nil: endpoints are never ejected for failing.
    public var outlier: OutlierConfig?
    public var retry = RetryConfig()
    /// Requests waiting for a connection, per worker; nil: no bound beyond the route timeout.
    public var maxPending: Int?

    public init(name: String, url: UpstreamURL) {
        self.name = name
        self.url = url
    }
}

/// A parsed `http://host[:port][/path]` or `https://…` upstream URL.
public struct UpstreamURL: Sendable, Equatable, CustomStringConvertible {
    public enum Scheme: String, Sendable, Equatable {
        case http
        case https
    }

    public var scheme: Scheme
    /// Host name or address, without brackets for IPv6.
    public var host: String
    public var port: Int
    /// The default upstream path; "/" when the URL has none. Never contains a query.
    public var path: String

    public init(scheme: Scheme, host: String, port: Int, path: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
    }

    /// The `Host` header value sent upstream: the host, with the port unless it is the scheme's default.
    public var hostHeader: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let defaultPort = scheme == .https ? 443 : 80
        return port == defaultPort ? bracketed : "\(bracketed):\(port)"
    }

    public var description: String { "\(scheme.rawValue)://\(hostHeader)\(path)" }
}

/// `upstreams.<name>.tls:` — verification and client certificates for https upstreams.
public struct UpstreamTLSConfig: Sendable, Equatable {
    /// nil: the system trust store.
    public var caFile: String?
    /// false skips the chain and name checks; meant for local testing, so start-up warns about it.
    public var verify = true
    /// SNI and certificate name (a DNS name without trailing dot, or an IP literal, which is
    /// matched against the certificate's addresses and not sent as SNI); nil: the URL's host.
    public var serverName: String?
    public var certFile: String?
    public var keyFile: String?

    public init() {}
}
