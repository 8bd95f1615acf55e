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

    /// Value[Const] as JSON: Int and Float keep their lexeme, enum values become strings, input
    /// objects become objects. Returns nil when the value refers to a variable (only possible when
    /// `isConst` is false), since it then has no value before execution.
    mutating func parseValue(isConst: Bool) throws(GraphQLSyntaxError) -> JSONValue? {
        switch token.kind {
        case .dollar:
            guard !isConst else { throw error("Unexpected variable in a constant value") }
            try advance()
            _ = try parseName()
            return nil
        case .int, .float:
            let lexeme = tokenText()
            try advance()
            return .number(lexeme)
        case .string, .blockString:
            let value = token.stringValue ?? ""
            try advance()
            return .string(value)
        case .name:
            let value: JSONValue
            if isName("true") {
                value = .bool(true)
            } else if isName("false") {
                value = .bool(false)
            } else if isName("null") {
                value = .null
            } else {
                value = .string(tokenText())
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
    private mutating func parseList(isConst: Bool) throws(GraphQLSyntaxError) -> JSONValue? {
        try enterNesting()
        try advance()
        var elements: [JSONValue] = []
        var isComplete = true
        while token.kind != .bracketClose {
            if let element = try parseValue(isConst: isConst) {
                elements.append(element)
            } else {
                isComplete = false
            }
        }
        depth -= 1
        try advance()
        return isComplete ? .array(elements) : nil
    }

    /// ObjectValue : { } | { ObjectField+ }
    private mutating func parseObject(isConst: Bool) throws(GraphQLSyntaxError) -> JSONValue? {
        try enterNesting()
        try advance()
        var object = JSONObject()
        var isComplete = true
        while token.kind != .braceClose {
            let name = try parseName()
            try expect(.colon)
            if let value = try parseValue(isConst: isConst) {
                object.members.append((key: name, value: value))
            } else {
                isComplete = false
            }
        }
        depth -= 1
        try advance()
        return isComplete ? .object(object) : nil
    }

    // MARK: - Arguments and directives

    /// Arguments[Const] : ( Argument+ )
    mutating func parseArguments(isConst: Bool) throws(GraphQLSyntaxError) {
        try expect(.parenOpen)
        repeat {
            _ = try parseName()
            try expect(.colon)
            _ = try parseValue(isConst: isConst)
        } while token.kind != .parenClose
        try advance()
    }

    /// Directives[Const] : Directive+ where Directive : @ Name Arguments?
    mutating func parseDirectives(isConst: Bool) throws(GraphQLSyntaxError) {
        while token.kind == .at {
            try advance()
            _ = try parseName()
            if token.kind == .parenOpen { try parseArguments(isConst: isConst) }
        }
    }
}
