import GatehouseConfig

/// A route's rules for GraphQL operations (README, "Persisted operations"): whether free-form queries pass
/// (`persisted: off | allow | only`), which operation names are allowed, and how calls by name
/// reach the upstream (a GraphQL POST of the stored document, or an AEM persisted-query GET).
///
/// `decide` is pure: it reads the request's method, path remainder, query string and body and
/// returns what to send, never touching a socket.
public struct OperationPolicy: Sendable, Equatable {
    public enum RequestMethod: Sendable, Equatable {
        case get
        case post
        /// Any other method the route admits; it cannot carry a GraphQL operation.
        case other
    }

    public var persisted: RouteConfig.Persisted
    /// nil: every operation name is allowed.
    public var allowList: Set<String>?
    public var upstreamKind: UpstreamConfig.Kind
    /// For AEM upstreams: `/graphql/execute.json/<aemConfig>/<name>`.
    public var aemConfig: String?

    public init(persisted: RouteConfig.Persisted, allowList: Set<String>? = nil,
                upstreamKind: UpstreamConfig.Kind = .graphql, aemConfig: String? = nil) {
        self.persisted = persisted
        self.allowList = allowList
        self.upstreamKind = upstreamKind
        self.aemConfig = aemConfig
    }

    public init(route: RouteConfig, upstream: UpstreamConfig) {
        self.init(persisted: route.persisted, allowList: route.operations.map(Set.init),
                  upstreamKind: upstream.kind, aemConfig: upstream.aemConfig)
    }

    /// False when every request is forwarded unchanged without a look at it, so the proxy can
    /// stream the body instead of buffering it for `decide`.
    public var inspectsRequests: Bool {
        persisted != .off || allowList != nil
    }

    /// True when an operation name passes the route's `operations` list.
    func allows(_ name: String?) -> Bool {
        guard let allowList else { return true }
        guard let name else { return false }
        return allowList.contains(name)
    }

    func notAllowed(_ name: String?) -> GatewayError {
        guard let name else {
            return GatewayError(.operationNotAllowed, "Anonymous operations are not allowed on this route")
        }
        return GatewayError(.operationNotAllowed, "Operation \"\(name)\" is not allowed on this route")
    }
}
