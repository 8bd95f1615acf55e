/// A GraphQL-over-HTTP GET query string: `query`, `operationName`, `variables` (JSON),
/// `extensions` (JSON), and every other parameter kept in order for typed variables
/// (`/listMoviesByGenre?genre=ACTION&limit=5`).
public struct GraphQLGetRequest: Sendable, Equatable {
    /// A parameter other than the four GraphQL ones, with every value it was given, in order.
    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var values: [String]

        public init(name: String, values: [String]) {
            self.name = name
            self.values = values
        }
    }

    public var query: String?
    public var operationName: String?
    public var variables: JSONObject?
    public var extensions: JSONObject?
    /// `extensions.persistedQuery`, when present.
    public var persistedQuery: PersistedQueryReference?
    /// The other parameters, in order of first appearance.
    public var parameters: [Parameter]

    public init(query: String? = nil, operationName: String? = nil, variables: JSONObject? = nil,
                extensions: JSONObject? = nil, persistedQuery: PersistedQueryReference? = nil,
                parameters: [Parameter] = []) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.extensions = extensions
        self.persistedQuery = persistedQuery
        self.parameters = parameters
    }

    // MARK: - Parsing

    /// `query` is the query string without the `?`. The GraphQL parameters may appear once each;
    /// empty `variables=` / `extensions=` count as absent.
    public static func parse(query: ArraySlice<UInt8>) -> Result<GraphQLGetRequest, GraphQLRequestError> {
        let pairs: [(name: String, value: String)]
        switch GraphQLQueryStringDecoder.pairs(query) {
        case .success(let decoded): pairs = decoded
        case .failure(let error): return .failure(error)
        }
        var request = GraphQLGetRequest()
        var seen: Set<String> = []
        for (name, value) in pairs {
            switch name {
            case "query", "operationName", "variables", "extensions":
                guard seen.insert(name).inserted else {
                    return .failure(GraphQLRequestError("Query parameter \"\(name)\" is given more than once"))
                }
                switch name {
                case "query": request.query = value
                case "operationName": request.operationName = value.isEmpty ? nil : value
                case "variables":
                    switch jsonObject(value, parameter: name) {
                    case .success(let object): request.variables = object
                    case .failure(let error): return .failure(error)
                    }
                default:
                    switch jsonObject(value, parameter: name) {
                    case .success(let object): request.extensions = object
                    case .failure(let error): return .failure(error)
                    }
                }
            default:
                if let index = request.parameters.firstIndex(where: { $0.name == name }) {
                    request.parameters[index].values.append(value)
                } else {
                    request.parameters.append(Parameter(name: name, values: [value]))
                }
            }
        }
        switch PersistedQueryReference.from(extensions: request.extensions) {
        case .success(let reference): request.persistedQuery = reference
        case .failure(let error): return .failure(error)
        }
        return .success(request)
    }

    public static func parse(query: String) -> Result<GraphQLGetRequest, GraphQLRequestError> {
        parse(query: Array(query.utf8)[...])
    }

    /// A JSON object (or `null`, or nothing) given as a query parameter; one naming a key twice is
    /// refused, as in a POST body (`GraphQLRequestBody.parse`).
    private static func jsonObject(_ text: String, parameter: String) -> Result<JSONObject?, GraphQLRequestError> {
        if text.isEmpty { return .success(nil) }
        let invalid = GraphQLRequestError("Query parameter \"\(parameter)\" must be a JSON object")
        guard let value = try? JSONReader.parse(text, rejectDuplicateKeys: true) else { return .failure(invalid) }
        if value.isNull { return .success(nil) }
        guard let object = value.objectValue else { return .failure(invalid) }
        return .success(object)
    }
}
