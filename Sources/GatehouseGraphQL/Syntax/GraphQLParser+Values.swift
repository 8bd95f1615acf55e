// Types, values, arguments and directives.

extension GraphQLParser {
    // MARK: - Types

    /// Type : NamedType | ListType | NonNullType
    mutating func parseTypeRef() throws(GraphQLSyntaxError) -> GraphQLTypeRef {
        var type: GraphQLTypeRef
        if token.kind == .bracketOpen {
            try enterNesting()
            try advance()
            let element = try parseTypeRef()
            depth -= 1
            try expect(.bracketClose)
            type = .list(element)
        } else {
            type = .named(try parseName())
        }
        if token.kind == .bang {
            try advance()
            type = .nonNull(type)
        }
        return type
    }

    // MARK: - Values

    /// Value[Const] as written: Int and Float keep their lexeme, enum values stay enum values.
    /// Variables are refused when `isConst` (default values).
    mutating func parseValue(isConst: Bool) throws(GraphQLSyntaxError) -> GraphQLInputValue {
        switch token.kind {
        case .dollar:
            guard !isConst else { throw error("Unexpected variable in a constant value") }
            try advance()
            return .variable(try parseName())
        case .int, .float:
            let lexeme = tokenText()
            try advance()
            return .number(lexeme)
        case .string, .blockString:
            let value = token.stringValue ?? ""
            try advance()
            return .string(value)
        case .name:
            let value: GraphQLInputValue
            if isName("true") {
                value = .bool(true)
            } else if isName("false") {
                value = .bool(false)
            } else if isName("null") {
                value = .null
            } else {
                value = .enumValue(tokenText())
            }
            try advance()
            return value
        case .bracketOpen:
            return try parseList(isConst: isConst)
        case .braceOpen:
            return try parseObject(isConst: isConst)
        default:
            throw unexpected()
        }
    }

    /// ListValue : [ ] | [ Value+ ]
    private mutating func parseList(isConst: Bool) throws(GraphQLSyntaxError) -> GraphQLInputValue {
        try enterNesting()
        try advance()
        var elements: [GraphQLInputValue] = []
        while token.kind != .bracketClose {
            elements.append(try parseValue(isConst: isConst))
        }
        depth -= 1
        try advance()
        return .list(elements)
    }

    /// ObjectValue : { } | { ObjectField+ }
    private mutating func parseObject(isConst: Bool) throws(GraphQLSyntaxError) -> GraphQLInputValue {
        try enterNesting()
        try advance()
        var fields: [(name: String, value: GraphQLInputValue)] = []
        while token.kind != .braceClose {
            let name = try parseName()
            try expect(.colon)
            fields.append((name: name, value: try parseValue(isConst: isConst)))
        }
        depth -= 1
        try advance()
        return .object(fields)
    }

    // MARK: - Arguments and directives

    /// Arguments[Const] : ( Argument+ ); kept only when the parser keeps selections.
    mutating func parseArguments(isConst: Bool) throws(GraphQLSyntaxError) -> [GraphQLArgument] {
        try expect(.parenOpen)
        var arguments: [GraphQLArgument] = []
        repeat {
            let name = try parseName()
            try expect(.colon)
            let value = try parseValue(isConst: isConst)
            if keepsSelections { arguments.append(GraphQLArgument(name: name, value: value)) }
        } while token.kind != .parenClose
        try advance()
        return arguments
    }

    /// Directives[Const] : Directive+ where Directive : @ Name Arguments?; kept only when the
    /// parser keeps selections.
    @discardableResult
    mutating func parseDirectives(isConst: Bool) throws(GraphQLSyntaxError) -> [GraphQLDirective] {
        var directives: [GraphQLDirective] = []
        while token.kind == .at {
            try advance()
            let name = try parseName()
            let arguments = token.kind == .parenOpen ? try parseArguments(isConst: isConst) : []
            if keepsSelections { directives.append(GraphQLDirective(name: name, arguments: arguments)) }
        }
        return directives
    }
}
