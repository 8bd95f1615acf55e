import GatehouseGraphQL

/// One entry of a GraphQL response's `errors`: the message, where in the document (when known),
/// the response path of the field that failed (for field errors), and `extensions.code`.
struct DemoGraphQLError: Sendable, Equatable {
    var message: String
    var locations: [GraphQLSourcePosition] = []
    /// Response keys and list indexes down to the field; empty for request errors.
    var path: [JSONValue] = []
    var code: String

    var json: JSONValue {
        var object: JSONObject = ["message": .string(message)]
        if !locations.isEmpty {
            object["locations"] = .array(locations.map { position in
                .object(["line": .number(String(position.line)), "column": .number(String(position.column))])
            })
        }
        if !path.isEmpty { object["path"] = .array(path) }
        object["extensions"] = .object(["code": .string(code)])
        return .object(object)
    }

    /// `{"errors":[…]}`: the answer to a request refused before execution (it has no `data`).
    static func response(_ errors: [DemoGraphQLError]) -> JSONValue {
        .object(["errors": .array(errors.map(\.json))])
    }
}
