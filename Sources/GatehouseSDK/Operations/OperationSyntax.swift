import GatehouseGraphQL

// An executable document as the generator needs it: unlike the gateway's own parser, which keeps
// only what routing needs, this one keeps every selection with its place in the file.

/// A place in one of the operation files.
public struct OperationLocation: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var position: GraphQLSourcePosition

    public var description: String { "\(file):\(position)" }
}

/// `query name($v: T = d) { … }` or `mutation …`.
struct OperationNode {
    var kind: GraphQLOperationKind
    var name: String?
    var variables: [VariableNode]
    var selections: [SelectionNode]
    var location: OperationLocation
}

/// `$name: Type = default`.
struct VariableNode {
    var name: String
    var type: GraphQLTypeRef
    var hasDefault: Bool
    var location: OperationLocation
}

/// `fragment Name on Type { … }`.
struct FragmentNode {
    var name: String
    var typeCondition: String
    var selections: [SelectionNode]
    var location: OperationLocation
}

indirect enum SelectionNode {
    case field(FieldNode)
    case fragmentSpread(name: String, location: OperationLocation)
    case inlineFragment(typeCondition: String?, selections: [SelectionNode], location: OperationLocation)
}

/// `alias: name(arg: value) { … }`.
struct FieldNode {
    var alias: String?
    var name: String
    var arguments: [ArgumentNode]
    /// nil for leaf fields.
    var selections: [SelectionNode]?
    var location: OperationLocation

    /// The key the field has in the response: its alias, or its name.
    var responseKey: String { alias ?? name }
}

/// `name: value`, with every `$variable` the value uses.
struct ArgumentNode {
    var name: String
    var variables: [(name: String, location: OperationLocation)]
    var location: OperationLocation
}

/// The definitions of one or more operation files.
struct OperationDocuments {
    var operations: [OperationNode] = []
    var fragments: [FragmentNode] = []
}
