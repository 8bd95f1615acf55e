import GatehouseGraphQL

/// One named type of the demo schema, as `config/schema.graphql` writes it.
enum DemoTypeDefinition: Sendable {
    case scalar(name: String)
    case object(DemoObjectType)
    case interface(name: String, fields: [DemoFieldDefinition])
    case union(name: String, members: [String])
    case enumeration(name: String, values: [String])
    case input(name: String, fields: [DemoArgumentDefinition])

    var name: String {
        switch self {
        case .scalar(let name), .interface(let name, _), .union(let name, _), .enumeration(let name, _),
             .input(let name, _):
            name
        case .object(let type):
            type.name
        }
    }

    /// The fields a selection on this type may ask for; nil for types without fields.
    var fields: [DemoFieldDefinition]? {
        switch self {
        case .object(let type): type.fields
        case .interface(_, let fields): fields
        case .union: []
        default: nil
        }
    }

    /// Objects, interfaces and unions are selected into; scalars and enums are leaves.
    var isComposite: Bool {
        switch self {
        case .object, .interface, .union: true
        default: false
        }
    }
}

/// `type Name implements Interface { … }`.
struct DemoObjectType: Sendable {
    var name: String
    var interfaces: [String] = []
    var fields: [DemoFieldDefinition]

    func field(named name: String) -> DemoFieldDefinition? {
        fields.first { $0.name == name }
    }
}

/// `name(arguments): Type` in an object or interface type.
struct DemoFieldDefinition: Sendable {
    var name: String
    var arguments: [DemoArgumentDefinition] = []
    var type: GraphQLTypeRef

    init(_ name: String, _ arguments: [DemoArgumentDefinition], _ type: GraphQLTypeRef) {
        self.name = name
        self.arguments = arguments
        self.type = type
    }

    init(_ name: String, _ type: GraphQLTypeRef) {
        self.init(name, [], type)
    }
}

/// `name: Type = default` in a field's arguments or an input type.
struct DemoArgumentDefinition: Sendable {
    var name: String
    var type: GraphQLTypeRef
    var defaultValue: JSONValue?

    init(_ name: String, _ type: GraphQLTypeRef, default defaultValue: JSONValue? = nil) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
    }
}

// MARK: - Writing types briefly

extension GraphQLTypeRef {
    /// `T!`.
    static func required(_ name: String) -> GraphQLTypeRef { .nonNull(.named(name)) }
    /// `[T!]!`: a list that is always there, of items that are never null.
    static func requiredList(_ name: String) -> GraphQLTypeRef { .nonNull(.list(.nonNull(.named(name)))) }
}
