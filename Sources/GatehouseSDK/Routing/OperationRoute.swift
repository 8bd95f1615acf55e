/// How the generated client calls one operation: through which door, with which method, at
/// which path on the gateway.
public struct OperationRoute: Sendable, Equatable {
    public enum Door: String, Sendable, Equatable {
        /// An `auth: none` route: no token is sent.
        case `public`
        /// Every other route: the client's token provider supplies a bearer token.
        case authenticated
    }

    public enum Method: Sendable, Equatable {
        /// `GET <prefix><name>?var=value…` on a `persisted: only` prefix route.
        case get
        /// `POST {"operationName":…,"variables":…}`.
        case post
    }

    public var door: Door
    public var method: Method
    /// The gateway path, e.g. `/ops/listMoviesByGenre` or `/graphql/noauth`.
    public var path: String
    /// The route as written in the config, for comments in the generated code.
    public var routePath: String
}
