import GatehouseGraphQL

/// The GraphQL side of the demo backend: a GraphQL-over-HTTP POST body, executed against the
/// demo schema. Errors follow GraphQL servers: HTTP 200 with an `errors` array; only a body that
/// is not a GraphQL request at all is a 400.
extension DemoBackend {
    func respondToGraphQL(_ request: DemoRequest) -> DemoResponse {
        if let serviceToken, request.header("x-service-token") != serviceToken {
            // `data: null` too, so the gateway's `map_graphql_errors` sees an authentication failure.
            return .json(.object([
                "errors": .array([DemoGraphQLError(message: DemoFieldError.unauthenticated.message,
                                                   code: DemoErrorCode.unauthenticated).json]),
                "data": .null,
            ]))
        }
        let body: GraphQLRequestBody
        switch GraphQLRequestBody.parse(request.body) {
        case .success(let parsed): body = parsed
        case .failure(let error): return .error(status: 400, error.message)
        }
        guard let query = body.query else {
            return .error(status: 400, "Body must carry a \"query\" string")
        }
        let context = DemoRootResolvers.Context(userID: request.header("x-user-id"))
        return .json(executor.execute(query: query, operationName: body.operationName,
                                      variables: body.variables ?? JSONObject(), context: context))
    }
}
