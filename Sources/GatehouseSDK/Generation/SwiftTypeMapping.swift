import GatehouseGraphQL

/// The Swift type of each GraphQL type: built-in and configured scalars, and the top-level names
/// given to the schema's enums and input objects.
struct SwiftTypeMapping {
    /// Scalars every generated package understands. Other custom scalars are `String` unless
    /// `--scalar Name=SwiftType` says otherwise.
    static let builtInScalars: [String: String] = [
        "ID": "String", "String": "String", "Int": "Int", "Float": "Double", "Boolean": "Bool",
        "UUID": "UUID", "Date": "Date", "Timestamp": "Date", "Int64": "Int64", "Any": "JSONValue",
    ]
    static let unknownScalarType = "String"
    /// Swift types the gateway can read from a query parameter (and `QueryParameterValue` covers).
    static let queryParameterTypes: Set<String> = ["String", "Int", "Double", "Bool"]

    let schema: GraphQLSchema
    let scalars: [String: String]
    /// Schema enum and input object name -> Swift type name.
    let namedTypes: [String: String]

    init(schema: GraphQLSchema, customScalars: [String: String], namedTypes: [String: String]) {
        self.schema = schema
        self.scalars = SwiftTypeMapping.builtInScalars.merging(customScalars) { _, custom in custom }
        self.namedTypes = namedTypes
    }

    /// The Swift type of a named scalar, enum or input object.
    func leaf(_ name: String) -> String {
        if let named = namedTypes[name] { return named }
        return scalars[name] ?? SwiftTypeMapping.unknownScalarType
    }

    /// `[String?]?` for `[String]`, `[Int]` for `[Int!]!`; `named` spells the named type at the bottom.
    func swiftType(_ type: GraphQLTypeRef, named: (String) -> String) -> String {
        switch type {
        case .nonNull(let inner): nonOptional(inner, named: named)
        default: nonOptional(type, named: named) + "?"
        }
    }

    func swiftType(_ type: GraphQLTypeRef) -> String {
        swiftType(type, named: leaf)
    }

    private func nonOptional(_ type: GraphQLTypeRef, named: (String) -> String) -> String {
        switch type {
        case .named(let name): named(name)
        case .list(let element): "[" + swiftType(element, named: named) + "]"
        case .nonNull(let inner): nonOptional(inner, named: named)
        }
    }

    /// True when a variable of this type can travel as its own query parameter (`genre=drama`,
    /// lists as repeated keys): Int, Float, Boolean, String, ID and enums, or a list of non-null
    /// ones. Others (input objects, other scalars, nested lists) go in `variables=` JSON.
    func isQueryParameter(_ type: GraphQLTypeRef) -> Bool {
        switch type.nullable {
        case .named(let name):
            return isPlainValue(name)
        case .list(let element):
            guard case .nonNull(.named(let name)) = element else { return false }
            return isPlainValue(name)
        case .nonNull:
            return false
        }
    }

    private func isPlainValue(_ name: String) -> Bool {
        if case .enumeration = schema[name]?.kind { return true }
        guard GraphQLSchema.builtInScalars.contains(name), let swift = scalars[name] else { return false }
        return SwiftTypeMapping.queryParameterTypes.contains(swift)
    }
}
