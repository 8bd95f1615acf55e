import GatehouseGraphQL

/// The project's `GraphQLLexer` with one token of look-ahead, shared by the schema (SDL) reader and
/// the operation reader: names, punctuators, types and constant values, with errors that carry
/// the token's line and column.
struct TokenCursor {
    /// Deep enough for any real document, shallow enough for the generator's stack; the same bound
    /// the gateway's own parser uses.
    static let maxDepth = GraphQLParser.maxDepth

    private var lexer: GraphQLLexer
    private(set) var token: GraphQLToken
    private var depth = 0

    init(text: String) throws(GraphQLSyntaxError) {
        lexer = GraphQLLexer(bytes: Array(text.utf8))
        token = try lexer.next()
    }

    // MARK: - Tokens

    var isAtEnd: Bool { token.kind == .endOfInput }

    var position: GraphQLSourcePosition { lexer.sourcePosition(of: token) }

    mutating func advance() throws(GraphQLSyntaxError) {
        token = try lexer.next()
    }

    /// Consumes the token when it is of `kind`.
    mutating func skip(_ kind: GraphQLToken.Kind) throws(GraphQLSyntaxError) -> Bool {
        guard token.kind == kind else { return false }
        try advance()
        return true
    }

    mutating func expect(_ kind: GraphQLToken.Kind, _ what: String) throws(GraphQLSyntaxError) {
        guard token.kind == kind else { throw expected(what) }
        try advance()
    }

    func isName(_ keyword: String) -> Bool {
        token.kind == .name && tokenText == keyword
    }

    mutating func expectKeyword(_ keyword: String) throws(GraphQLSyntaxError) {
        guard isName(keyword) else { throw expected("\"\(keyword)\"") }
        try advance()
    }

    mutating func name() throws(GraphQLSyntaxError) -> String {
        guard token.kind == .name else { throw expected("Name") }
        let text = tokenText
        try advance()
        return text
    }

    /// A name with the position where it was written.
    mutating func positionedName() throws(GraphQLSyntaxError) -> (name: String, position: GraphQLSourcePosition) {
        let at = position
        return (try name(), at)
    }

    var tokenText: String {
        String(decoding: lexer.bytes[token.start..<token.end], as: UTF8.self)
    }

    /// A description (string or block string) before a definition, skipped.
    mutating func skipDescription() throws(GraphQLSyntaxError) {
        if token.kind == .string || token.kind == .blockString { try advance() }
    }

    // MARK: - Types

    /// Type : NamedType | [ Type ] | Type !
    mutating func typeReference() throws(GraphQLSyntaxError) -> GraphQLTypeRef {
        var type: GraphQLTypeRef
        if token.kind == .bracketOpen {
            try enterNesting()
            try advance()
            let element = try typeReference()
            depth -= 1
            try expect(.bracketClose, "\"]\"")
            type = .list(element)
        } else {
            type = .named(try name())
        }
        if try skip(.bang) { type = .nonNull(type) }
        return type
    }

    /// `name: Type = default Directives?` — an argument or input field definition, or (with
    /// `variablePrefix`) a variable definition `$name: Type = default`.
    mutating func inputValueDefinition(variablePrefix: Bool = false) throws(GraphQLSyntaxError)
        -> (name: String, position: GraphQLSourcePosition, type: GraphQLTypeRef, hasDefault: Bool) {
        let at = position
        if variablePrefix { try expect(.dollar, "\"$\"") }
        let name = try name()
        try expect(.colon, "\":\"")
        let type = try typeReference()
        var hasDefault = false
        if try skip(.equals) {
            try skipValue(isConst: true)
            hasDefault = true
        }
        try skipDirectives(isConst: true)
        return (name, at, type, hasDefault)
    }

    // MARK: - Values

    /// Skips a value, reporting each `$variable` it uses (none are allowed when `isConst`).
    mutating func skipValue(isConst: Bool,
                            variable: (String, GraphQLSourcePosition) -> Void = { _, _ in }) throws(GraphQLSyntaxError) {
        switch token.kind {
        case .dollar:
            guard !isConst else { throw error("Unexpected variable in a constant value") }
            let at = position
            try advance()
            variable(try name(), at)
        case .int, .float, .string, .blockString, .name:
            try advance()
        case .bracketOpen:
            try enterNesting()
            try advance()
            while token.kind != .bracketClose {
                try skipValue(isConst: isConst, variable: variable)
            }
            depth -= 1
            try advance()
        case .braceOpen:
            try enterNesting()
            try advance()
            while token.kind != .braceClose {
                _ = try name()
                try expect(.colon, "\":\"")
                try skipValue(isConst: isConst, variable: variable)
            }
            depth -= 1
            try advance()
        default:
            throw unexpected()
        }
    }

    /// Directives : Directive+ where Directive : @ Name Arguments? — read and dropped.
    mutating func skipDirectives(isConst: Bool,
                                 variable: (String, GraphQLSourcePosition) -> Void = { _, _ in }) throws(GraphQLSyntaxError) {
        while try skip(.at) {
            _ = try name()
            if token.kind == .parenOpen {
                try advance()
                while token.kind != .parenClose {
                    _ = try name()
                    try expect(.colon, "\":\"")
                    try skipValue(isConst: isConst, variable: variable)
                }
                try advance()
            }
        }
    }

    mutating func enterNesting() throws(GraphQLSyntaxError) {
        depth += 1
        if depth > TokenCursor.maxDepth {
            throw error("Document is nested too deeply (more than \(TokenCursor.maxDepth) levels)")
        }
    }

    mutating func leaveNesting() {
        depth -= 1
    }

    // MARK: - Errors

    func error(_ message: String) -> GraphQLSyntaxError {
        GraphQLSyntaxError(message, at: position)
    }

    func expected(_ what: String) -> GraphQLSyntaxError {
        error("Expected \(what), found \(describedToken)")
    }

    func unexpected() -> GraphQLSyntaxError {
        error("Unexpected \(describedToken)")
    }

    private var describedToken: String {
        switch token.kind {
        case .endOfInput: "<EOF>"
        case .name: "Name \"\(tokenText)\""
        case .int: "Int \"\(tokenText)\""
        case .float: "Float \"\(tokenText)\""
        case .string, .blockString: "String"
        default: "\"\(tokenText)\""
        }
    }
}
