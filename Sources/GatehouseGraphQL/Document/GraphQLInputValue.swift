/// A value as written in a document, before execution: like JSON, plus variable references and
/// enum values (which JSON would make indistinguishable from strings).
public enum GraphQLInputValue: Sendable, Equatable {
    /// `$name`, without the `$`.
    case variable(String)
    /// An Int or Float, exactly as written.
    case number(String)
    case string(String)
    case bool(Bool)
    case null
    case enumValue(String)
    case list([GraphQLInputValue])
    case object([(name: String, value: GraphQLInputValue)])

    public static func == (lhs: GraphQLInputValue, rhs: GraphQLInputValue) -> Bool {
        switch (lhs, rhs) {
        case (.variable(let a), .variable(let b)), (.number(let a), .number(let b)),
             (.string(let a), .string(let b)), (.enumValue(let a), .enumValue(let b)):
            return a == b
        case (.bool(let a), .bool(let b)):
            return a == b
        case (.null, .null):
            return true
        case (.list(let a), .list(let b)):
            return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
        default:
            return false
        }
    }

    // MARK: - As JSON

    /// The value as JSON with `variables` substituted: enum values become strings, input objects
    /// objects. A variable that `variables` lacks is nil at the top (the argument counts as not
    /// given, as GraphQL's CoerceArgumentValues says) and `null` inside a list or object.
    public func resolved(variables: JSONObject) -> JSONValue? {
        switch self {
        case .variable(let name): return variables[name]
        case .number(let lexeme): return .number(lexeme)
        case .string(let value), .enumValue(let value): return .string(value)
        case .bool(let value): return .bool(value)
        case .null: return .null
        case .list(let elements):
            return .array(elements.map { $0.resolved(variables: variables) ?? .null })
        case .object(let fields):
            return .object(JSONObject(fields.map { (key: $0.name, value: $0.value.resolved(variables: variables) ?? .null) }))
        }
    }

    /// The value as JSON when it refers to no variable (default values); nil otherwise.
    public var constantJSON: JSONValue? {
        switch self {
        case .variable: return nil
        case .list(let elements):
            var values: [JSONValue] = []
            for element in elements {
                guard let value = element.constantJSON else { return nil }
                values.append(value)
            }
            return .array(values)
        case .object(let fields):
            var object = JSONObject()
            for field in fields {
                guard let value = field.value.constantJSON else { return nil }
                object.members.append((key: field.name, value: value))
            }
            return .object(object)
        default:
            return resolved(variables: JSONObject())
        }
    }
}
