import GatehouseGraphQL

/// What a resolver hands the executor: a leaf (a scalar or enum value, as JSON), an object of a
/// schema type, a list, or null. The executor then keeps only what the selection set asks for.
indirect enum DemoValue: Sendable {
    case null
    case leaf(JSONValue)
    case object(DemoObject)
    case list([DemoValue])

    static func string(_ value: String) -> DemoValue { .leaf(.string(value)) }
    static func int(_ value: Int) -> DemoValue { .leaf(.number(String(value))) }

    /// A Float as GraphQL writes it: `8.0`, not `8`, so clients typed `Double` read it as written.
    static func float(_ value: Double) -> DemoValue { .leaf(.number(String(value))) }

    static func optional<Wrapped>(_ value: Wrapped?, _ make: (Wrapped) -> DemoValue) -> DemoValue {
        value.map(make) ?? .null
    }
}

/// An object of the schema type `typeName`, with a value for each of that type's fields (the
/// demo's data is small, so fields are filled in eagerly; none of them takes arguments).
struct DemoObject: Sendable {
    var typeName: String
    var fields: [String: DemoValue]

    init(_ typeName: String, _ fields: [String: DemoValue]) {
        self.typeName = typeName
        self.fields = fields
    }
}
