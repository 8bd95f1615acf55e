/// One lexical token of a GraphQL document. Ignored tokens (white space, line terminators,
/// comments, commas, the byte order mark) never become tokens.
public struct GraphQLToken: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
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

    public var kind: Kind
    /// UTF-8 byte offsets of the token's source text.
    public var start: Int
    public var end: Int
    /// The line the token starts on (from 1) and the byte offset where that line starts; the
    /// column is derived from these only when needed (errors, definition positions).
    public var line: Int
    public var lineStart: Int
    /// The decoded value of string and block string tokens.
    public var stringValue: String?

    @usableFromInline
    init(kind: Kind, start: Int, end: Int, line: Int, lineStart: Int, stringValue: String?) {
        self.kind = kind
        self.start = start
        self.end = end
        self.line = line
        self.lineStart = lineStart
        self.stringValue = stringValue
    }
}
