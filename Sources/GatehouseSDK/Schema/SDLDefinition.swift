import GatehouseGraphQL

/// One type definition or extension as written in SDL, before extensions are merged and
/// references checked.
struct SDLDefinition {
    enum Kind: String {
        case scalar
        case type
        case interface
        case union
        case `enum`
        case input
    }

    /// A name written in the definition (an interface, a union member, an enum value), with its place.
    struct Reference {
        var name: String
        var position: GraphQLSourcePosition
    }

    var kind: Kind
    var name: String
    var isExtension: Bool
    var position: GraphQLSourcePosition
    var fields: [SchemaField] = []
    var interfaces: [Reference] = []
    var members: [Reference] = []
    var enumValues: [Reference] = []
}

/// `schema { query: Q mutation: M }` (or `extend schema`).
struct SDLSchemaDefinition {
    var operationTypes: [(kind: GraphQLOperationKind, type: SDLDefinition.Reference)] = []
    var position: GraphQLSourcePosition
}
