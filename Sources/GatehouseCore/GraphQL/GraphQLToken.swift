/// One lexical token of a GraphQL document. Ignored tokens (white space, line terminators,
/// comments, commas, the byte order mark) never become tokens.
struct GraphQLToken {
    enum Kind: Equatable {
        case endOfInput
        case bang
        case dollar
        case ampersand
        case parenOpen
        case parenClose
        case spread
        case colon
        case equals
        case at
        case bracketOpen
        case bracketClose
        case braceOpen
        case pipe
        case braceClose
        case name
        case int
        case float
        case string
        case blockString
    }

    var kind: Kind
    /// UTF-8 byte offsets of the token's source text.
    var start: Int
    var end: Int
    /// The line the token starts on (from 1) and the byte offset where that line starts; the
    /// column is derived from these only when needed (errors, definition positions).
    var line: Int
    var lineStart: Int
    /// The decoded value of string and block string tokens.
    var stringValue: String?
}
