/// Why a GraphQL request cannot be executed as sent: a malformed body or query string, a
/// variable of the wrong type, an unknown operation name. The message is a short English
/// sentence naming the culprit; the gateway answers every one as a 400.
public struct GraphQLRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
