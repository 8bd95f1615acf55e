/// A field that cannot be resolved; it becomes one entry of the response's `errors` and the
/// field's value is null.
struct DemoFieldError: Error, Sendable, Equatable {
    var message: String
    var code: String

    static let unauthenticated = DemoFieldError(message: "Unauthorized", code: DemoErrorCode.unauthenticated)

    static func badInput(_ message: String) -> DemoFieldError {
        DemoFieldError(message: message, code: DemoErrorCode.badUserInput)
    }
}

/// The `extensions.code` values the demo backend answers with: Apollo Server's names, which the
/// gateway's `map_graphql_errors` and the seed apps recognise.
enum DemoErrorCode {
    static let parseFailed = "GRAPHQL_PARSE_FAILED"
    static let validationFailed = "GRAPHQL_VALIDATION_FAILED"
    static let badUserInput = "BAD_USER_INPUT"
    static let unauthenticated = "UNAUTHENTICATED"
    static let internalError = "INTERNAL_SERVER_ERROR"
}
