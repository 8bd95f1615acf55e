import GatehouseGraphQL

/// An operation checked against the schema: every field found, every type known. The generator
/// turns it into Swift types without looking at the schema's fields again.
public struct ResolvedOperation: Sendable {
    public var name: String
    public var kind: GraphQLOperationKind
    public var variables: [ResolvedVariable]
    /// The selection set on the root type.
    public var selection: ResolvedSelectionSet
    public var location: OperationLocation
}

public struct ResolvedVariable: Sendable {
    public var name: String
    public var type: GraphQLTypeRef
    public var hasDefault: Bool

    /// Optional in Swift: nullable, or with a default the gateway's upstream fills in.
    public var isOptional: Bool { !type.isNonNull || hasDefault }
}

/// The fields selected on one composite type, merged across fragments, plus the parts that apply
/// only when the value is of a narrower type (`... on Human { … }` inside a `Character`).
public struct ResolvedSelectionSet: Sendable {
    /// The type the selection set is on.
    public var typeName: String
    public var fields: [ResolvedField]
    public var conditions: [ResolvedCondition]

    public func field(_ responseKey: String) -> ResolvedField? {
        fields.first { $0.responseKey == responseKey }
    }
}

public struct ResolvedField: Sendable {
    /// The alias when there is one, else the field name: the key in the response JSON.
    public var responseKey: String
    public var fieldName: String
    public var type: GraphQLTypeRef
    /// For fields of object, interface and union types.
    public var selection: ResolvedSelectionSet?
}

/// Fields that apply when `__typename` is one of `possibleTypes`.
public struct ResolvedCondition: Sendable {
    public var typeName: String
    /// The object types, sorted, that are both the fragment's and the enclosing type's.
    public var possibleTypes: [String]
    public var selection: ResolvedSelectionSet
}
