import GatehouseGraphQL

/// GraphQL's CoerceVariableValues, as far as the demo needs it: each defined variable takes the
/// value given, else its default; a non-null variable without either is a request error.
/// Values are not converted; resolvers read them leniently (`DemoArguments`).
enum DemoVariableCoercion {
    /// The coerced values and the problems found; any problem means the request is not executed.
    static func coerce(_ given: JSONObject,
                       for definitions: [VariableDefinition]) -> (values: JSONObject, errors: [DemoGraphQLError]) {
        var coerced = JSONObject()
        var errors: [DemoGraphQLError] = []
        for definition in definitions {
            if let value = given[definition.name] {
                if value.isNull && definition.type.isNonNull {
                    errors.append(problem("Variable \"$\(definition.name)\" of non-null type \"\(definition.type)\" must not be null."))
                } else {
                    coerced[definition.name] = value
                }
            } else if let defaultValue = definition.defaultValue {
                coerced[definition.name] = defaultValue
            } else if definition.type.isNonNull {
                errors.append(problem("Variable \"$\(definition.name)\" of required type \"\(definition.type)\" was not provided."))
            }
        }
        return (coerced, errors)
    }

    private static func problem(_ message: String) -> DemoGraphQLError {
        DemoGraphQLError(message: message, code: DemoErrorCode.badUserInput)
    }
}
