/// `$name: Type = default` in an operation's variable definitions.
public struct VariableDefinition: Sendable, Equatable {
    /// Without the `$`.
    public var name: String
    public var type: GraphQLTypeRef
    /// The default value as JSON: enum values become strings, input objects become objects.
    public var defaultValue: JSONValue?

    public init(name: String, type: GraphQLTypeRef, defaultValue: JSONValue? = nil) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}
