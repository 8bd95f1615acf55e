/// A type as written in a variable definition: `Int`, `[Genre!]`, `ID!`.
public indirect enum GraphQLTypeRef: Sendable, Equatable, CustomStringConvertible {
    case named(String)
    case list(GraphQLTypeRef)
    case nonNull(GraphQLTypeRef)

    /// The type as GraphQL writes it, e.g. `[Genre!]!`.
    public var description: String {
        switch self {
        case .named(let name): name
        case .list(let element): "[\(element)]"
        case .nonNull(let inner): "\(inner)!"
        }
    }

    public var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// The type without its outer `!`.
    public var nullable: GraphQLTypeRef {
        if case .nonNull(let inner) = self { return inner }
        return self
    }

    /// The named type at the bottom of any list and non-null wrappers.
    public var namedType: String {
        switch self {
        case .named(let name): name
        case .list(let element): element.namedType
        case .nonNull(let inner): inner.namedType
        }
    }
}
