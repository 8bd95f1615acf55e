import GatehouseGraphQL

/// Reads a GraphQL schema in the schema definition language (GraphQL spec, October 2021, §3):
/// `schema {}`, `scalar`, `type` and `interface` (with `implements A & B`), `union`, `enum`,
/// `input`, and `extend` of each of them; descriptions and directives are read and dropped, and
/// `directive @…` definitions are skipped. Built on the project's `GraphQLLexer`.
///
/// A syntax error stops the reading (one issue); the checks after it — duplicate definitions,
/// unknown types, output types used as inputs and the reverse — report every problem at once.
public struct SDLReader {
    var cursor: TokenCursor
    var definitions: [SDLDefinition] = []
    var schemaDefinitions: [SDLSchemaDefinition] = []

    public static func read(_ text: String, file: String) -> Result<GraphQLSchema, SDKIssues> {
        do {
            var reader = try SDLReader(cursor: TokenCursor(text: text))
            try reader.readDocument()
            var builder = SchemaBuilder(file: file)
            return builder.build(definitions: reader.definitions, schemaDefinitions: reader.schemaDefinitions)
        } catch {
            return .failure(SDKIssues([SDKIssue(file: file, position: error.position, message: error.message)]))
        }
    }

    private init(cursor: TokenCursor) {
        self.cursor = cursor
    }

    // MARK: - Document

    private mutating func readDocument() throws(GraphQLSyntaxError) {
        while !cursor.isAtEnd {
            try cursor.skipDescription()
            let position = cursor.position
            let isExtension = cursor.isName("extend")
            if isExtension { try cursor.advance() }
            guard cursor.token.kind == .name else { throw cursor.expected("a definition") }
            let keyword = cursor.tokenText
            if keyword == "schema" {
                try cursor.advance()
                schemaDefinitions.append(try readSchemaDefinition(at: position))
            } else if keyword == "directive", !isExtension {
                try skipDirectiveDefinition()
            } else if let kind = SDLDefinition.Kind(rawValue: keyword) {
                try cursor.advance()
                definitions.append(try readDefinition(kind, isExtension: isExtension, at: position))
            } else if ["query", "mutation", "subscription", "fragment"].contains(keyword) {
                throw cursor.error("Unexpected \(keyword): a schema holds type definitions, not operations")
            } else {
                throw cursor.unexpected()
            }
        }
    }

    /// schema Directives? { OperationTypeDefinition+ }
    private mutating func readSchemaDefinition(at position: GraphQLSourcePosition) throws(GraphQLSyntaxError) -> SDLSchemaDefinition {
        var definition = SDLSchemaDefinition(position: position)
        try cursor.skipDirectives(isConst: true)
        guard cursor.token.kind == .braceOpen else { return definition }
        try cursor.advance()
        while !(try cursor.skip(.braceClose)) {
            let kindPosition = cursor.position
            let kindName = try cursor.name()
            guard let kind = GraphQLOperationKind(rawValue: kindName) else {
                throw GraphQLSyntaxError("Expected query, mutation or subscription, found Name \"\(kindName)\"",
                                         at: kindPosition)
            }
            try cursor.expect(.colon, "\":\"")
            let (name, at) = try cursor.positionedName()
            definition.operationTypes.append((kind, SDLDefinition.Reference(name: name, position: at)))
        }
        return definition
    }

    /// directive @name(args) repeatable? on A | B — the generator needs none of it.
    private mutating func skipDirectiveDefinition() throws(GraphQLSyntaxError) {
        try cursor.advance()
        try cursor.expect(.at, "\"@\"")
        _ = try cursor.name()
        if cursor.token.kind == .parenOpen { _ = try readArguments() }
        if cursor.isName("repeatable") { try cursor.advance() }
        try cursor.expectKeyword("on")
        _ = try cursor.skip(.pipe)
        _ = try cursor.name()
        while try cursor.skip(.pipe) { _ = try cursor.name() }
    }

    // MARK: - Type definitions

    private mutating func readDefinition(_ kind: SDLDefinition.Kind, isExtension: Bool,
                                         at position: GraphQLSourcePosition) throws(GraphQLSyntaxError) -> SDLDefinition {
        var definition = SDLDefinition(kind: kind, name: try cursor.name(), isExtension: isExtension,
                                       position: position)
        switch kind {
        case .scalar:
            try cursor.skipDirectives(isConst: true)
        case .type, .interface:
            definition.interfaces = try readImplements()
            try cursor.skipDirectives(isConst: true)
            if cursor.token.kind == .braceOpen { definition.fields = try readFields(isInput: false) }
        case .input:
            try cursor.skipDirectives(isConst: true)
            if cursor.token.kind == .braceOpen { definition.fields = try readFields(isInput: true) }
        case .union:
            try cursor.skipDirectives(isConst: true)
            if try cursor.skip(.equals) {
                _ = try cursor.skip(.pipe)
                repeat {
                    let (name, at) = try cursor.positionedName()
                    definition.members.append(SDLDefinition.Reference(name: name, position: at))
                } while try cursor.skip(.pipe)
            }
        case .enum:
            try cursor.skipDirectives(isConst: true)
            if cursor.token.kind == .braceOpen { definition.enumValues = try readEnumValues() }
        }
        return definition
    }

    /// implements &? A & B
    private mutating func readImplements() throws(GraphQLSyntaxError) -> [SDLDefinition.Reference] {
        guard cursor.isName("implements") else { return [] }
        try cursor.advance()
        _ = try cursor.skip(.ampersand)
        var interfaces: [SDLDefinition.Reference] = []
        repeat {
            let (name, at) = try cursor.positionedName()
            interfaces.append(SDLDefinition.Reference(name: name, position: at))
        } while try cursor.skip(.ampersand)
        return interfaces
    }

    /// { FieldDefinition+ } or { InputValueDefinition+ }
    private mutating func readFields(isInput: Bool) throws(GraphQLSyntaxError) -> [SchemaField] {
        try cursor.expect(.braceOpen, "\"{\"")
        var fields: [SchemaField] = []
        while !(try cursor.skip(.braceClose)) {
            try cursor.skipDescription()
            let (name, at) = try cursor.positionedName()
            var arguments: [SchemaArgument] = []
            if !isInput, cursor.token.kind == .parenOpen { arguments = try readArguments() }
            try cursor.expect(.colon, "\":\"")
            let type = try cursor.typeReference()
            var hasDefault = false
            if isInput, try cursor.skip(.equals) {
                try cursor.skipValue(isConst: true)
                hasDefault = true
            }
            try cursor.skipDirectives(isConst: true)
            fields.append(SchemaField(name: name, type: type, arguments: arguments, hasDefault: hasDefault,
                                      position: at))
        }
        return fields
    }

    /// ( InputValueDefinition+ )
    private mutating func readArguments() throws(GraphQLSyntaxError) -> [SchemaArgument] {
        try cursor.expect(.parenOpen, "\"(\"")
        var arguments: [SchemaArgument] = []
        while !(try cursor.skip(.parenClose)) {
            try cursor.skipDescription()
            let argument = try cursor.inputValueDefinition()
            arguments.append(SchemaArgument(name: argument.name, type: argument.type, hasDefault: argument.hasDefault,
                                            position: argument.position))
        }
        return arguments
    }

    /// { EnumValueDefinition+ }
    private mutating func readEnumValues() throws(GraphQLSyntaxError) -> [SDLDefinition.Reference] {
        try cursor.expect(.braceOpen, "\"{\"")
        var values: [SDLDefinition.Reference] = []
        while !(try cursor.skip(.braceClose)) {
            try cursor.skipDescription()
            let (name, at) = try cursor.positionedName()
            if ["true", "false", "null"].contains(name) {
                throw GraphQLSyntaxError("Enum value cannot be \(name)", at: at)
            }
            try cursor.skipDirectives(isConst: true)
            values.append(SDLDefinition.Reference(name: name, position: at))
        }
        return values
    }
}
