/// What the gateway needs from an executable GraphQL document: its operations and fragments with
/// their variables, the fragments each one spreads, and where each definition sits in the text.
/// Selection sets (with arguments and directives) are kept only when the parser is asked to
/// (`GraphQLParser.parse(_:keepingSelections:)`); otherwise they are checked for syntax and dropped.
public struct GraphQLDocument: Sendable, Equatable {
    public var operations: [GraphQLOperationDefinition]
    public var fragments: [GraphQLFragmentDefinition]

    public init(operations: [GraphQLOperationDefinition], fragments: [GraphQLFragmentDefinition]) {
        self.operations = operations
        self.fragments = fragments
    }

    /// The operation a request executes, per GraphQL's GetOperation: the one named
    /// `operationName`, or the only operation when no name is given.
    public func operationToExecute(named operationName: String?) -> Result<GraphQLOperationDefinition, GraphQLRequestError> {
        if let operationName {
            guard let operation = operations.first(where: { $0.name == operationName }) else {
                return .failure(GraphQLRequestError("Unknown operation named \"\(operationName)\""))
            }
            return .success(operation)
        }
        guard operations.count == 1, let operation = operations.first else {
            return .failure(GraphQLRequestError("Must provide operation name if query contains multiple operations"))
        }
        return .success(operation)
    }
}

public enum GraphQLOperationKind: String, Sendable, Equatable {
    case query
    case mutation
    case subscription
}

/// `query Name($v: T = default) @directive { … }`, or the `{ … }` shorthand (an anonymous query).
public struct GraphQLOperationDefinition: Sendable, Equatable {
    public var kind: GraphQLOperationKind
    /// nil for anonymous operations.
    public var name: String?
    public var variables: [VariableDefinition]
    /// The fragments this definition spreads itself (not transitively), each once, in order of first use.
    public var fragmentSpreads: [GraphQLFragmentSpread]
    /// UTF-8 byte offsets of the definition's text, from its first token through its closing `}`.
    public var sourceRange: Range<Int>
    public var position: GraphQLSourcePosition
    /// The top-level selection set; empty unless the parser kept selections.
    public var selections: [GraphQLSelection]

    public init(kind: GraphQLOperationKind, name: String?, variables: [VariableDefinition],
                fragmentSpreads: [GraphQLFragmentSpread], sourceRange: Range<Int>,
                position: GraphQLSourcePosition, selections: [GraphQLSelection] = []) {
        self.kind = kind
        self.name = name
        self.variables = variables
        self.fragmentSpreads = fragmentSpreads
        self.sourceRange = sourceRange
        self.position = position
        self.selections = selections
    }
}

/// `fragment Name on Type @directive { … }`.
public struct GraphQLFragmentDefinition: Sendable, Equatable {
    public var name: String
    public var typeCondition: String
    /// The fragments this definition spreads itself (not transitively), each once, in order of first use.
    public var fragmentSpreads: [GraphQLFragmentSpread]
    /// UTF-8 byte offsets of the definition's text, from `fragment` through its closing `}`.
    public var sourceRange: Range<Int>
    public var position: GraphQLSourcePosition
    /// The fragment's selection set; empty unless the parser kept selections.
    public var selections: [GraphQLSelection]

    public init(name: String, typeCondition: String, fragmentSpreads: [GraphQLFragmentSpread],
                sourceRange: Range<Int>, position: GraphQLSourcePosition, selections: [GraphQLSelection] = []) {
        self.name = name
        self.typeCondition = typeCondition
        self.fragmentSpreads = fragmentSpreads
        self.sourceRange = sourceRange
        self.position = position
        self.selections = selections
    }
}

/// `...Name`: a use of a named fragment, where it was first written in its definition.
public struct GraphQLFragmentSpread: Sendable, Equatable {
    public var name: String
    public var position: GraphQLSourcePosition

    public init(name: String, position: GraphQLSourcePosition) {
        self.name = name
        self.position = position
    }
}
