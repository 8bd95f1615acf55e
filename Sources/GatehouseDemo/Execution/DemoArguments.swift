import GatehouseGraphQL

/// A field's arguments after coercion: every argument the field defines that has a value (given,
/// from a variable, or its default), as JSON.
struct DemoArguments: Sendable {
    var values: JSONObject

    init(_ values: JSONObject = JSONObject()) {
        self.values = values
    }

    subscript(name: String) -> JSONValue? {
        guard let value = values[name], !value.isNull else { return nil }
        return value
    }

    func string(_ name: String) -> String? {
        self[name]?.stringValue
    }

    /// An `ID`: GraphQL accepts a string or an integer for one and always means the string.
    func id(_ name: String) -> String? {
        switch self[name] {
        case .string(let text): text
        case .number(let lexeme) where Int(lexeme) != nil: lexeme
        default: nil
        }
    }

    func int(_ name: String) -> Int? {
        self[name]?.numberLexeme.flatMap { Int($0) }
    }

    func double(_ name: String) -> Double? {
        self[name]?.doubleValue
    }
}
