/// Types the variables of a GET call by name (`/listMoviesByGenre?genre=ACTION&limit=5`) from the
/// operation's own variable definitions, since query parameters are all text:
///
/// - `Int` (32-bit signed, written as GraphQL writes it: no sign, leading zeros or fraction),
///   `Float` (a JSON number, finite), `Boolean` (`true`/`false`), `String` and `ID` (the text);
/// - any other named type is an enum or a custom scalar, which the document alone cannot tell
///   apart; both travel as JSON strings, so the text is sent as a string and the upstream, which
///   knows the schema, judges it;
/// - list types take repeated keys (`genre=A&genre=B` for `[Genre!]`); a single key is a
///   one-element list; nested lists can only come through `variables=`;
/// - `variables=` JSON is merged in as given; a variable given both ways takes the query
///   parameter, the more specific of the two;
/// - a non-null variable with neither a value nor a default, an unknown parameter, or a value of
///   the wrong type is a 400 that names the variable.
public enum GraphQLVariableCoercion {
    public static func variables(parameters: [GraphQLGetRequest.Parameter], json: JSONObject?,
                                 definitions: [VariableDefinition],
                                 operationName: String) -> Result<JSONObject, GraphQLRequestError> {
        let unknown = unknownNames(parameters: parameters, json: json, definitions: definitions)
        if !unknown.isEmpty {
            let list = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
            let noun = unknown.count == 1 ? "variable" : "variables"
            return .failure(GraphQLRequestError("Unknown \(noun) \(list) for operation \"\(operationName)\""))
        }
        var variables = JSONObject()
        for definition in definitions {
            if let parameter = parameters.first(where: { $0.name == definition.name }) {
                switch coerce(parameter.values, to: definition.type, variable: definition.name) {
                case .success(let value): variables.members.append((key: definition.name, value: value))
                case .failure(let error): return .failure(error)
                }
            } else if let value = json?[definition.name] {
                variables.members.append((key: definition.name, value: value))
            } else if definition.type.isNonNull && definition.defaultValue == nil {
                return .failure(GraphQLRequestError(
                    "Variable \"$\(definition.name)\" of required type \"\(definition.type)\" was not provided"))
            }
        }
        return .success(variables)
    }

    // MARK: - Names

    private static func unknownNames(parameters: [GraphQLGetRequest.Parameter], json: JSONObject?,
                                     definitions: [VariableDefinition]) -> [String] {
        let known = Set(definitions.map(\.name))
        var unknown: [String] = []
        for name in parameters.map(\.name) + (json?.keys ?? []) where !known.contains(name) {
            if !unknown.contains(name) { unknown.append(name) }
        }
        return unknown
    }

    // MARK: - Coercion

    private static func coerce(_ values: [String], to type: GraphQLTypeRef,
                               variable: String) -> Result<JSONValue, GraphQLRequestError> {
        switch type.nullable {
        case .list(let element):
            if case .list = element.nullable {
                return .failure(GraphQLRequestError(
                    "Variable \"$\(variable)\" is a nested list; send it in the \"variables\" parameter"))
            }
            var elements: [JSONValue] = []
            elements.reserveCapacity(values.count)
            for text in values {
                guard let value = scalar(text, typeName: element.namedType) else {
                    return .failure(GraphQLRequestError(
                        "Variable \"$\(variable)\" must be a list of \(element.namedType) values"))
                }
                elements.append(value)
            }
            return .success(.array(elements))
        case .named(let typeName):
            guard values.count == 1, let text = values.first else {
                return .failure(GraphQLRequestError("Variable \"$\(variable)\" is given more than once"))
            }
            guard let value = scalar(text, typeName: typeName) else {
                return .failure(GraphQLRequestError(
                    "Variable \"$\(variable)\" must be \(article(typeName)) \(typeName)"))
            }
            return .success(value)
        case .nonNull:
            // `nullable` removed the only `!` a type can have at its top.
            return .failure(GraphQLRequestError("Variable \"$\(variable)\" has an invalid type"))
        }
    }

    /// The JSON value of one query-parameter text for a named type, nil when it does not fit.
    static func scalar(_ text: String, typeName: String) -> JSONValue? {
        switch typeName {
        case "Int":
            return isInt32(text) ? .number(text) : nil
        case "Float":
            return isFiniteNumber(text) ? .number(text) : nil
        case "Boolean":
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return nil
            }
        default:
            return .string(text)
        }
    }

    private static func article(_ typeName: String) -> String {
        guard let first = typeName.utf8.first else { return "a" }
        return "AEIOU".utf8.contains(first) ? "an" : "a"
    }

    // MARK: - Number grammar

    /// `-?(0|[1-9][0-9]*)` within −2³¹…2³¹−1.
    private static func isInt32(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let end = integerPartEnd(bytes, from: 0), end == bytes.count else { return false }
        return Int32(text) != nil
    }

    /// JSON's number grammar (which GraphQL's Float shares) and a finite value.
    private static func isFiniteNumber(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard var index = integerPartEnd(bytes, from: 0) else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            guard let end = digitsEnd(bytes, from: index + 1) else { return false }
            index = end
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard let end = digitsEnd(bytes, from: index) else { return false }
            index = end
        }
        guard index == bytes.count, let value = Double(text) else { return false }
        return value.isFinite
    }

    /// The end of `-?(0|[1-9][0-9]*)` starting at `start`, nil when there is none.
    private static func integerPartEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "0") { return index + 1 }
        return digitsEnd(bytes, from: index)
    }

    /// The end of one or more digits starting at `start`, nil when there are none.
    private static func digitsEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            index += 1
        }
        return index > start ? index : nil
    }
}
