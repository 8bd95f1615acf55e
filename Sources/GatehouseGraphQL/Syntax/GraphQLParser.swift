/// A recursive-descent parser for executable GraphQL documents (GraphQL spec, October 2021, §2):
/// operations (query, mutation, subscription, and the `{ … }` shorthand), variable definitions
/// with types and constant default values, directives, selection sets, fields with aliases and
/// arguments, fragment spreads, inline fragments and fragment definitions. Type-system
/// definitions are refused: a gateway document only executes. Selection sets, arguments and
/// directives are checked and dropped unless `keepingSelections` asks for them (an executor
/// such as the demo backend's needs them; the gateway's policy does not).
///
/// Errors carry the line and column of the offending token. Nesting deeper than `maxDepth`
/// (selection sets, lists, objects) is refused so hostile documents cannot exhaust the stack.
public struct GraphQLParser {
    /// Deep enough for any real document, shallow enough for a worker thread's stack.
    public static let maxDepth = 128

    var lexer: GraphQLLexer
    var token: GraphQLToken
    /// End offset of the last token consumed, which closes a definition's source range.
    var previousTokenEnd = 0
    var depth = 0
    /// Spreads of the definition being parsed, each name once, in order of first use.
    var spreads: [GraphQLFragmentSpread] = []
    var spreadNames: Set<String> = []
    /// Whether selection sets, arguments and directives are built into the document.
    let keepsSelections: Bool

    // MARK: - Entry points

    public static func parse(_ text: String,
                             keepingSelections: Bool = false) throws(GraphQLSyntaxError) -> GraphQLDocument {
        try parse(utf8: Array(text.utf8), keepingSelections: keepingSelections)
    }

    /// `bytes` must be valid UTF-8.
    public static func parse(utf8 bytes: [UInt8],
                             keepingSelections: Bool = false) throws(GraphQLSyntaxError) -> GraphQLDocument {
        var parser = try GraphQLParser(bytes: bytes, keepingSelections: keepingSelections)
        return try parser.parseDocument()
    }

    private init(bytes: [UInt8], keepingSelections: Bool) throws(GraphQLSyntaxError) {
        keepsSelections = keepingSelections
        lexer = GraphQLLexer(bytes: bytes)
        token = try lexer.next()
    }

    // MARK: - Document

    /// Document : Definition+
    private mutating func parseDocument() throws(GraphQLSyntaxError) -> GraphQLDocument {
        var operations: [GraphQLOperationDefinition] = []
        var fragments: [GraphQLFragmentDefinition] = []
        repeat {
            if token.kind == .braceOpen {
                operations.append(try parseOperation(kind: .query, shorthand: true))
            } else if let kind = currentOperationKind() {
                operations.append(try parseOperation(kind: kind, shorthand: false))
            } else if isName("fragment") {
                fragments.append(try parseFragmentDefinition())
            } else if token.kind == .name, GraphQLParser.typeSystemKeywords.contains(tokenText()) {
                throw error("Unexpected \(describe(token)): type system definitions are not executable")
            } else {
                throw unexpected()
            }
        } while token.kind != .endOfInput
        return GraphQLDocument(operations: operations, fragments: fragments)
    }

    private static let typeSystemKeywords: Set<String> = [
        "schema", "scalar", "type", "interface", "union", "enum", "input", "directive", "extend",
    ]

    private func currentOperationKind() -> GraphQLOperationKind? {
        if isName("query") { return .query }
        if isName("mutation") { return .mutation }
        if isName("subscription") { return .subscription }
        return nil
    }

    // MARK: - Operations

    /// OperationDefinition : OperationType Name? VariableDefinitions? Directives? SelectionSet | SelectionSet
    private mutating func parseOperation(kind: GraphQLOperationKind,
                                         shorthand: Bool) throws(GraphQLSyntaxError) -> GraphQLOperationDefinition {
        let start = token.start
        let position = lexer.sourcePosition(of: token)
        beginDefinition()
        var name: String?
        var variables: [VariableDefinition] = []
        if !shorthand {
            try advance()
            if token.kind == .name { name = try parseName() }
            if token.kind == .parenOpen { variables = try parseVariableDefinitions() }
            try parseDirectives(isConst: false)
        }
        let selections = try parseSelectionSet()
        return GraphQLOperationDefinition(kind: kind, name: name, variables: variables,
                                          fragmentSpreads: spreads, sourceRange: start..<previousTokenEnd,
                                          position: position, selections: selections)
    }

    /// VariableDefinitions : ( VariableDefinition+ )
    private mutating func parseVariableDefinitions() throws(GraphQLSyntaxError) -> [VariableDefinition] {
        try expect(.parenOpen)
        var definitions: [VariableDefinition] = []
        repeat {
            definitions.append(try parseVariableDefinition())
        } while token.kind != .parenClose
        try advance()
        return definitions
    }

    /// VariableDefinition : Variable : Type DefaultValue? Directives[Const]?
    private mutating func parseVariableDefinition() throws(GraphQLSyntaxError) -> VariableDefinition {
        try expect(.dollar)
        let name = try parseName()
        try expect(.colon)
        let type = try parseTypeRef()
        var defaultValue: JSONValue?
        if token.kind == .equals {
            try advance()
            defaultValue = try parseValue(isConst: true).constantJSON
        }
        try parseDirectives(isConst: true)
        return VariableDefinition(name: name, type: type, defaultValue: defaultValue)
    }

    // MARK: - Fragments

    /// FragmentDefinition : fragment FragmentName TypeCondition Directives? SelectionSet
    private mutating func parseFragmentDefinition() throws(GraphQLSyntaxError) -> GraphQLFragmentDefinition {
        let start = token.start
        let position = lexer.sourcePosition(of: token)
        beginDefinition()
        try advance()
        if isName("on") { throw unexpected() }
        let name = try parseName()
        try expectKeyword("on")
        let typeCondition = try parseName()
        try parseDirectives(isConst: false)
        let selections = try parseSelectionSet()
        return GraphQLFragmentDefinition(name: name, typeCondition: typeCondition, fragmentSpreads: spreads,
                                         sourceRange: start..<previousTokenEnd, position: position,
                                         selections: selections)
    }

    private mutating func beginDefinition() {
        spreads = []
        spreadNames = []
    }

    // MARK: - Selections

    /// SelectionSet : { Selection+ }; the selections are empty unless the parser keeps them.
    mutating func parseSelectionSet() throws(GraphQLSyntaxError) -> [GraphQLSelection] {
        guard token.kind == .braceOpen else { throw expected("\"{\"") }
        try enterNesting()
        try advance()
        var selections: [GraphQLSelection] = []
        repeat {
            if let selection = try parseSelection() { selections.append(selection) }
        } while token.kind != .braceClose
        depth -= 1
        try advance()
        return selections
    }

    /// Selection : Field | FragmentSpread | InlineFragment; nil unless the parser keeps selections.
    private mutating func parseSelection() throws(GraphQLSyntaxError) -> GraphQLSelection? {
        if token.kind == .spread {
            try advance()
            if token.kind == .name, !isName("on") {
                let position = lexer.sourcePosition(of: token)
                let name = try parseName()
                if spreadNames.insert(name).inserted {
                    spreads.append(GraphQLFragmentSpread(name: name, position: position))
                }
                let directives = try parseDirectives(isConst: false)
                return keepsSelections ? .fragmentSpread(name: name, directives: directives) : nil
            }
            var typeCondition: String?
            if isName("on") {
                try advance()
                typeCondition = try parseName()
            }
            let directives = try parseDirectives(isConst: false)
            let selections = try parseSelectionSet()
            return keepsSelections
                ? .inlineFragment(typeCondition: typeCondition, directives: directives, selections: selections) : nil
        }
        let field = try parseField()
        return keepsSelections ? .field(field) : nil
    }

    /// Field : Alias? Name Arguments? Directives? SelectionSet?
    private mutating func parseField() throws(GraphQLSyntaxError) -> GraphQLField {
        // Columns cost a scan of the line, so they are worked out only for kept selections.
        let position = keepsSelections ? lexer.sourcePosition(of: token) : GraphQLSourcePosition(line: 0, column: 0)
        var alias: String?
        var name = try parseName()
        if token.kind == .colon {
            try advance()
            alias = name
            name = try parseName()
        }
        let arguments = token.kind == .parenOpen ? try parseArguments(isConst: false) : []
        let directives = try parseDirectives(isConst: false)
        let selections = token.kind == .braceOpen ? try parseSelectionSet() : []
        return GraphQLField(alias: alias, name: name, arguments: arguments, directives: directives,
                            selections: selections, position: position)
    }

    // MARK: - Tokens

    mutating func advance() throws(GraphQLSyntaxError) {
        previousTokenEnd = token.end
        token = try lexer.next()
    }

    mutating func expect(_ kind: GraphQLToken.Kind) throws(GraphQLSyntaxError) {
        guard token.kind == kind else { throw expected(GraphQLParser.describe(kind)) }
        try advance()
    }

    mutating func expectKeyword(_ keyword: String) throws(GraphQLSyntaxError) {
        guard isName(keyword) else { throw expected("\"\(keyword)\"") }
        try advance()
    }

    mutating func parseName() throws(GraphQLSyntaxError) -> String {
        guard token.kind == .name else { throw expected("Name") }
        let name = tokenText()
        try advance()
        return name
    }

    /// Called on the opening token, so a refusal points at it.
    mutating func enterNesting() throws(GraphQLSyntaxError) {
        depth += 1
        if depth > GraphQLParser.maxDepth {
            throw error("Document is nested too deeply (more than \(GraphQLParser.maxDepth) levels)")
        }
    }

    func isName(_ keyword: String) -> Bool {
        guard token.kind == .name, token.end - token.start == keyword.utf8.count else { return false }
        var index = token.start
        for byte in keyword.utf8 {
            if lexer.bytes[index] != byte { return false }
            index += 1
        }
        return true
    }

    func tokenText() -> String {
        text(of: token)
    }

    func text(of token: GraphQLToken) -> String {
        String(decoding: lexer.bytes[token.start..<token.end], as: UTF8.self)
    }

    // MARK: - Errors

    func error(_ message: String) -> GraphQLSyntaxError {
        GraphQLSyntaxError(message, at: lexer.sourcePosition(of: token))
    }

    func expected(_ what: String) -> GraphQLSyntaxError {
        error("Expected \(what), found \(describe(token))")
    }

    func unexpected() -> GraphQLSyntaxError {
        error("Unexpected \(describe(token))")
    }

    func describe(_ token: GraphQLToken) -> String {
        switch token.kind {
        case .name: "Name \"\(text(of: token))\""
        case .int: "Int \"\(text(of: token))\""
        case .float: "Float \"\(text(of: token))\""
        case .string, .blockString: "String"
        default: GraphQLParser.describe(token.kind)
        }
    }

    static func describe(_ kind: GraphQLToken.Kind) -> String {
        switch kind {
        case .endOfInput: "<EOF>"
        case .bang: "\"!\""
        case .dollar: "\"$\""
        case .ampersand: "\"&\""
        case .parenOpen: "\"(\""
        case .parenClose: "\")\""
        case .spread: "\"...\""
        case .colon: "\":\""
        case .equals: "\"=\""
        case .at: "\"@\""
        case .bracketOpen: "\"[\""
        case .bracketClose: "\"]\""
        case .braceOpen: "\"{\""
        case .pipe: "\"|\""
        case .braceClose: "\"}\""
        case .name: "Name"
        case .int: "Int"
        case .float: "Float"
        case .string, .blockString: "String"
        }
    }
}
