/// Whether two GraphQL documents are the same document: the same significant tokens in the same
/// order. White space, line breaks, commas and comments (the spec's ignored tokens) may differ;
/// nothing else may. An operation's name says nothing about what it does, so this is how an
/// allow-list tells that query text is the stored operation it names and not another one
/// under that name (Hasura's allow-list and Apollo's safelisting compare documents, not names).
public enum GraphQLSameDocument {
    /// False for text that is not valid GraphQL tokens, as well as for a different document.
    public static func compare(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        var lefts = GraphQLLexer(bytes: left)
        var rights = GraphQLLexer(bytes: right)
        do {
            while true {
                let a = try lefts.next()
                let b = try rights.next()
                guard a.kind == b.kind else { return false }
                switch a.kind {
                case .endOfInput:
                    return true
                case .string, .blockString:
                    // Compared decoded: "\u0041" and "A" are the same value.
                    guard a.stringValue == b.stringValue else { return false }
                default:
                    guard left[a.start..<a.end] == right[b.start..<b.end] else { return false }
                }
            }
        } catch {
            return false
        }
    }
}
