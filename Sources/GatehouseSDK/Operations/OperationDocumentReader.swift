import GatehouseGraphQL

/// Reads executable GraphQL documents (operations and fragments) into `OperationDocuments`,
/// keeping selection sets, aliases, arguments and the place of each. The gateway has already
/// accepted these files (its registry parsed them), so a syntax error here is unexpected but
/// still reported with its position.
struct OperationDocumentReader {
    private var cursor: TokenCursor
    private let file: String

    static func read(_ text: String, file: String, into documents: inout OperationDocuments) throws(SDKIssue) {
        do {
            var reader = try OperationDocumentReader(cursor: TokenCursor(text: text), file: file)
            try reader.readDocument(into: &documents)
        } catch {
            throw SDKIssue(file: file, position: error.position, message: error.message)
        }
    }

    private init(cursor: TokenCursor, file: String) {
        self.cursor = cursor
        self.file = file
    }

    private var location: OperationLocation { OperationLocation(file: file, position: cursor.position) }

    // MARK: - Definitions

    private mutating func readDocument(into documents: inout OperationDocuments) throws(GraphQLSyntaxError) {
        while !cursor.isAtEnd {
            let start = location
            if cursor.token.kind == .braceOpen {
                documents.operations.append(OperationNode(kind: .query, name: nil, variables: [],
                                                          selections: try selectionSet(), location: start))
                continue
            }
            guard cursor.token.kind == .name else { throw cursor.unexpected() }
            if cursor.isName("fragment") {
                try cursor.advance()
                let name = try cursor.name()
                try cursor.expectKeyword("on")
                let typeCondition = try cursor.name()
                try cursor.skipDirectives(isConst: false)
                documents.fragments.append(FragmentNode(name: name, typeCondition: typeCondition,
                                                        selections: try selectionSet(), location: start))
                continue
            }
            guard let kind = GraphQLOperationKind(rawValue: cursor.tokenText) else { throw cursor.unexpected() }
            try cursor.advance()
            var name: String?
            if cursor.token.kind == .name { name = try cursor.name() }
            var variables: [VariableNode] = []
            if try cursor.skip(.parenOpen) {
                while !(try cursor.skip(.parenClose)) { variables.append(try variableDefinition()) }
            }
            try cursor.skipDirectives(isConst: false)
            documents.operations.append(OperationNode(kind: kind, name: name, variables: variables,
                                                      selections: try selectionSet(), location: start))
        }
    }

    /// $name : Type DefaultValue? Directives?
    private mutating func variableDefinition() throws(GraphQLSyntaxError) -> VariableNode {
        let variable = try cursor.inputValueDefinition(variablePrefix: true)
        return VariableNode(name: variable.name, type: variable.type, hasDefault: variable.hasDefault,
                            location: OperationLocation(file: file, position: variable.position))
    }

    // MARK: - Selections

    /// { Selection+ }
    private mutating func selectionSet() throws(GraphQLSyntaxError) -> [SelectionNode] {
        guard cursor.token.kind == .braceOpen else { throw cursor.expected("\"{\"") }
        try cursor.enterNesting()
        try cursor.advance()
        var selections: [SelectionNode] = []
        repeat {
            selections.append(try selection())
        } while !(try cursor.skip(.braceClose))
        cursor.leaveNesting()
        return selections
    }

    private mutating func selection() throws(GraphQLSyntaxError) -> SelectionNode {
        let start = location
        guard try cursor.skip(.spread) else { return .field(try field()) }
        if cursor.token.kind == .name, !cursor.isName("on") {
            let name = try cursor.name()
            try cursor.skipDirectives(isConst: false)
            return .fragmentSpread(name: name, location: start)
        }
        var typeCondition: String?
        if cursor.isName("on") {
            try cursor.advance()
            typeCondition = try cursor.name()
        }
        try cursor.skipDirectives(isConst: false)
        return .inlineFragment(typeCondition: typeCondition, selections: try selectionSet(), location: start)
    }

    /// Alias? Name Arguments? Directives? SelectionSet?
    private mutating func field() throws(GraphQLSyntaxError) -> FieldNode {
        let start = location
        var name = try cursor.name()
        var alias: String?
        if try cursor.skip(.colon) {
            alias = name
            name = try cursor.name()
        }
        var arguments: [ArgumentNode] = []
        if try cursor.skip(.parenOpen) {
            repeat {
                let argumentStart = location
                let argumentName = try cursor.name()
                try cursor.expect(.colon, "\":\"")
                var used: [(name: String, location: OperationLocation)] = []
                let file = self.file
                try cursor.skipValue(isConst: false) { variable, position in
                    used.append((variable, OperationLocation(file: file, position: position)))
                }
                arguments.append(ArgumentNode(name: argumentName, variables: used, location: argumentStart))
            } while !(try cursor.skip(.parenClose))
        }
        try cursor.skipDirectives(isConst: false)
        var selections: [SelectionNode]?
        if cursor.token.kind == .braceOpen { selections = try selectionSet() }
        return FieldNode(alias: alias, name: name, arguments: arguments, selections: selections, location: start)
    }
}
