import GatehouseGraphQL

/// A GraphQL type system read from SDL: named types and the root operation types. Built once by
/// `SDLReader`, then only read by the resolver and the generator.
public struct GraphQLSchema: Sendable {
    /// The built-in scalars every schema has (GraphQL spec, October 2021, §3.5).
    public static let builtInScalars = ["Int", "Float", "String", "Boolean", "ID"]

    public var types: [String: SchemaType]
    /// Type names in definition order (built-in scalars first), for deterministic output.
    public var typeOrder: [String]
    public var queryType: String?
    public var mutationType: String?
    public var subscriptionType: String?

    public init(types: [String: SchemaType], typeOrder: [String], queryType: String?,
                mutationType: String?, subscriptionType: String?) {
        self.types = types
        self.typeOrder = typeOrder
        self.queryType = queryType
        self.mutationType = mutationType
        self.subscriptionType = subscriptionType
    }

    public subscript(name: String) -> SchemaType? { types[name] }

    public func rootType(for kind: GraphQLOperationKind) -> String? {
        switch kind {
        case .query: queryType
        case .mutation: mutationType
        case .subscription: subscriptionType
        }
    }

    /// The object types a value of `typeName` can be at run time: itself for an object type, the
    /// members of a union, the object types implementing an interface (directly or through
    /// another interface).
    public func possibleTypes(of typeName: String) -> Set<String> {
        guard let type = types[typeName] else { return [] }
        switch type.kind {
        case .object:
            return [typeName]
        case .union(let members):
            return Set(members)
        case .interface:
            var found: Set<String> = []
            for candidate in typeOrder {
                guard let other = types[candidate], case .object = other.kind,
                      implements(candidate, typeName) else { continue }
                found.insert(candidate)
            }
            return found
        default:
            return []
        }
    }

    /// True when `typeName` lists `interfaceName` among its interfaces, directly or transitively.
    public func implements(_ typeName: String, _ interfaceName: String) -> Bool {
        var pending = types[typeName]?.interfaces ?? []
        var seen: Set<String> = []
        while let next = pending.popLast() {
            if next == interfaceName { return true }
            guard seen.insert(next).inserted else { continue }
            pending += types[next]?.interfaces ?? []
        }
        return false
    }
}

/// A named type of the schema.
public struct SchemaType: Sendable {
    public enum Kind: Sendable {
        case scalar
        case object
        case interface
        case union([String])
        case enumeration([String])
        case inputObject
    }

    public var name: String
    public var kind: Kind
    /// Output fields of objects and interfaces, input fields of input objects, in order.
    public var fields: [SchemaField]
    /// Interfaces an object or interface implements.
    public var interfaces: [String]
    /// Where the type was first defined.
    public var position: GraphQLSourcePosition?

    public init(name: String, kind: Kind, fields: [SchemaField] = [], interfaces: [String] = [],
                position: GraphQLSourcePosition? = nil) {
        self.name = name
        self.kind = kind
        self.fields = fields
        self.interfaces = interfaces
        self.position = position
    }

    public func field(named name: String) -> SchemaField? {
        fields.first { $0.name == name }
    }

    /// Objects, interfaces and unions: types with selection sets.
    public var isComposite: Bool {
        switch kind {
        case .object, .interface, .union: true
        default: false
        }
    }

    /// Scalars, enums and input objects: types a variable can have.
    public var isInput: Bool {
        switch kind {
        case .scalar, .enumeration, .inputObject: true
        default: false
        }
    }

    public var enumValues: [String] {
        if case .enumeration(let values) = kind { return values }
        return []
    }
}

/// A field of an object, interface or input object, with its arguments.
public struct SchemaField: Sendable {
    public var name: String
    public var type: GraphQLTypeRef
    public var arguments: [SchemaArgument]
    /// Input fields: whether a default value was written.
    public var hasDefault: Bool
    public var position: GraphQLSourcePosition

    public init(name: String, type: GraphQLTypeRef, arguments: [SchemaArgument] = [],
                hasDefault: Bool = false, position: GraphQLSourcePosition) {
        self.name = name
        self.type = type
        self.arguments = arguments
        self.hasDefault = hasDefault
        self.position = position
    }
}

/// `name: Type = default` in a field's argument list.
public struct SchemaArgument: Sendable {
    public var name: String
    public var type: GraphQLTypeRef
    public var hasDefault: Bool
    public var position: GraphQLSourcePosition

    public init(name: String, type: GraphQLTypeRef, hasDefault: Bool, position: GraphQLSourcePosition) {
        self.name = name
        self.type = type
        self.hasDefault = hasDefault
        self.position = position
    }
}
