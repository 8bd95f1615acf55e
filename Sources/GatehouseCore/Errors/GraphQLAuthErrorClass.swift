/// What a GraphQL error response means for `map_graphql_errors`: the upstream refused the
/// caller, so the gateway answers with its own 401 or 403 envelope.
public enum GraphQLAuthErrorClass: Sendable, Equatable {
    /// Message "Unauthorized"/"Unauthenticated" or code `UNAUTHENTICATED`: becomes a 401.
    case unauthenticated(message: String)
    /// Code `FORBIDDEN`: becomes a 403.
    case forbidden(message: String)
}
