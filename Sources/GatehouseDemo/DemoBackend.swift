import GatehouseGraphQL
import GatehouseHTTP
import Glibc

/// The backend `gatehouse demo` puts behind the gateway: a GraphQL endpoint executing the demo
/// schema (`config/schema.graphql`) and an AEM-style persisted-query endpoint. It answers
/// requests and touches no socket (`DemoServer` serves it):
/// - `POST /graphql`, `POST /graphql/noauth` (and any other `/graphql/…` path, which is where a
///   prefix route's remainder lands): GraphQL JSON requests;
/// - `GET /graphql/execute.json/<aemConfig>/<name>;k=v;…`: AEM persisted queries;
/// - anything else: 404 JSON (405 for a method those paths do not take).
public final class DemoBackend {
    /// When set, GraphQL requests must carry `X-Service-Token` with this value, which the gateway
    /// injects; requests without it get a GraphQL `Unauthorized` error.
    let serviceToken: String?
    /// The AEM configuration name in persisted-query paths.
    let aemConfig: String
    let executor: DemoExecutor

    static let graphQLPath = "/graphql"
    static let aemPrefix = "/graphql/execute.json/"

    /// The WKND sample site's configuration, which AEM's tutorials use.
    public static let defaultAEMConfig = "wknd-shared"

    public init(tokenSecret: String, serviceToken: String? = nil, aemConfig: String = DemoBackend.defaultAEMConfig,
                clock: @escaping @Sendable () -> Int = DemoBackend.unixSeconds) {
        self.serviceToken = serviceToken
        self.aemConfig = aemConfig
        executor = DemoExecutor(resolvers: DemoRootResolvers(movies: DemoMovieStore(), tokenSecret: tokenSecret,
                                                             clock: clock))
    }

    @Sendable public static func unixSeconds() -> Int {
        Int(time(nil))
    }

    /// The answer to one request; every failure is a response.
    public func respond(to request: DemoRequest) -> DemoResponse {
        let path = request.path
        if path.hasPrefix(Self.aemPrefix) {
            guard request.method == .get || request.method == .head else {
                return .error(status: 405, "Persisted queries are read with GET")
            }
            return respondToPersistedQuery(pathRemainder: path.dropFirst(Self.aemPrefix.count))
        }
        if path == Self.graphQLPath || path.hasPrefix(Self.graphQLPath + "/") {
            guard request.method == .post else {
                return .error(status: 405, "The demo backend takes GraphQL requests as POST")
            }
            return respondToGraphQL(request)
        }
        return .error(status: 404, "Not found")
    }
}
