import GatehouseGraphQL

/// The GraphQL parts of a request, whatever its method: from the JSON body of a POST or the
/// query string of a GET.
struct OperationCall {
    var query: String?
    var operationName: String?
    var variables: JSONObject?
    var persistedQuery: PersistedQueryReference?
    /// GET parameters other than the four GraphQL ones (typed variables); empty for POST.
    var parameters: [GraphQLGetRequest.Parameter] = []
    var isGet: Bool

    static func from(method: OperationPolicy.RequestMethod, query: ArraySlice<UInt8>?,
                     body: UnsafeRawBufferPointer?) -> Result<OperationCall, GatewayError> {
        switch method {
        case .get:
            switch GraphQLGetRequest.parse(query: query ?? []) {
            case .success(let request):
                return .success(OperationCall(query: request.query, operationName: request.operationName,
                                              variables: request.variables, persistedQuery: request.persistedQuery,
                                              parameters: request.parameters, isGet: true))
            case .failure(let error):
                return .failure(GatewayError(error))
            }
        case .post:
            guard let body, !body.isEmpty else {
                return .failure(GatewayError(.badRequest, "Request body is required"))
            }
            switch GraphQLRequestBody.parse(body) {
            case .success(let request):
                return .success(OperationCall(query: request.query, operationName: request.operationName,
                                              variables: request.variables, persistedQuery: request.persistedQuery,
                                              isGet: false))
            case .failure(let error):
                return .failure(GatewayError(error))
            }
        case .other:
            return .failure(GatewayError(.methodNotAllowed(allow: ["GET", "POST"]),
                                         "GraphQL requests use GET or POST"))
        }
    }

    /// True when the request carries neither query text, nor a name, nor a hash.
    var namesNothing: Bool {
        query == nil && operationName == nil && persistedQuery == nil
    }
}
