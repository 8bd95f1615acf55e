/// One entry of a selection set, kept when the document is parsed with `keepingSelections`
/// (an executor needs them; the gateway's policy does not, so it never pays for them).
public enum GraphQLSelection: Sendable, Equatable {
    case field(GraphQLField)
    /// `...Name @directive`.
    case fragmentSpread(name: String, directives: [GraphQLDirective])
    /// `... on Type @directive { … }`, or `... @directive { … }` without a type condition.
    case inlineFragment(typeCondition: String?, directives: [GraphQLDirective], selections: [GraphQLSelection])
}

/// `alias: name(arg: value) @directive { … }`.
public struct GraphQLField: Sendable, Equatable {
    public var alias: String?
    public var name: String
    public var arguments: [GraphQLArgument]
    public var directives: [GraphQLDirective]
    /// Empty for a leaf field.
    public var selections: [GraphQLSelection]
    public var position: GraphQLSourcePosition

    public init(alias: String?, name: String, arguments: [GraphQLArgument], directives: [GraphQLDirective],
                selections: [GraphQLSelection], position: GraphQLSourcePosition) {
        self.alias = alias
        self.name = name
        self.arguments = arguments
        self.directives = directives
        self.selections = selections
        self.position = position
    }

    /// The key of the field in the response: its alias, else its name.
    public var responseKey: String { alias ?? name }
}

/// `name: value` in a field's or a directive's argument list.
public struct GraphQLArgument: Sendable, Equatable {
    public var name: String
    public var value: GraphQLInputValue

    public init(name: String, value: GraphQLInputValue) {
        self.name = name
        self.value = value
    }
}

/// `@name(arg: value)`.
public struct GraphQLDirective: Sendable, Equatable {
    public var name: String
    public var arguments: [GraphQLArgument]

    public init(name: String, arguments: [GraphQLArgument]) {
        self.name = name
        self.arguments = arguments
    }
}
