import GatehouseGraphQL

/// Executes a GraphQL request against `DemoSchema` and the resolver table, the way GraphQL's
/// ExecuteRequest does for the parts the demo needs: the operation is picked by name, variables
/// are coerced from their definitions, the document is validated, then the selection set is
/// walked — fields and aliases, `__typename`, named and inline fragments, `@skip`/`@include`,
/// arguments with defaults, nested objects and lists. The response holds exactly the fields
/// asked for, in the order asked; a failed field is null with an entry in `errors`, and a null
/// in a non-null position makes its parent null, up to `data` itself.
struct DemoExecutor {
    let resolvers: DemoRootResolvers

    /// The response to `query`, always a JSON object: `{"data":…}`, `{"errors":[…],"data":…}`,
    /// or `{"errors":[…]}` when the request was refused before execution.
    func execute(query: String, operationName: String?, variables: JSONObject,
                 context: DemoRootResolvers.Context) -> JSONValue {
        let document: GraphQLDocument
        do {
            document = try GraphQLParser.parse(query, keepingSelections: true)
        } catch {
            return DemoGraphQLError.response([DemoGraphQLError(message: "Syntax Error: \(error.message).",
                                                               locations: [error.position],
                                                               code: DemoErrorCode.parseFailed)])
        }
        return execute(document, operationName: operationName, variables: variables, context: context)
    }

    func execute(_ document: GraphQLDocument, operationName: String?, variables: JSONObject,
                 context: DemoRootResolvers.Context) -> JSONValue {
        let operation: GraphQLOperationDefinition
        switch document.operationToExecute(named: operationName) {
        case .success(let found): operation = found
        case .failure(let error):
            return DemoGraphQLError.response([DemoGraphQLError(message: error.message + ".",
                                                               code: DemoErrorCode.validationFailed)])
        }
        let rootType: String
        switch operation.kind {
        case .query: rootType = DemoSchema.queryType
        case .mutation: rootType = DemoSchema.mutationType
        case .subscription:
            return DemoGraphQLError.response([DemoGraphQLError(
                message: "The demo backend does not support subscriptions.", locations: [operation.position],
                code: DemoErrorCode.validationFailed)])
        }
        let problems = DemoValidator(document: document).validate(operation, rootType: rootType)
        if !problems.isEmpty { return DemoGraphQLError.response(problems) }

        let coerced = DemoVariableCoercion.coerce(variables, for: operation.variables)
        if !coerced.errors.isEmpty { return DemoGraphQLError.response(coerced.errors) }
        var run = DemoExecution(resolvers: resolvers, context: context, fragments: document.fragments,
                                variables: coerced.values)
        let data = run.executeRoot(rootType, operation.selections)
        var response = JSONObject()
        if !run.errors.isEmpty { response["errors"] = .array(run.errors.map(\.json)) }
        response["data"] = data.map(JSONValue.object) ?? .null
        return .object(response)
    }
}
