/// A GraphQL-over-HTTP POST body: `{"query", "operationName", "variables", "extensions"}`, every
/// member optional so that calls by name and by hash fit too. `null` members count as absent.
public struct GraphQLRequestBody: Sendable, Equatable {
    public var query: String?
    public var operationName: String?
    public var variables: JSONObject?
    public var extensions: JSONObject?
    /// `extensions.persistedQuery`, when present.
    public var persistedQuery: PersistedQueryReference?

    public init(query: String? = nil, operationName: String? = nil, variables: JSONObject? = nil,
                extensions: JSONObject? = nil, persistedQuery: PersistedQueryReference? = nil) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.extensions = extensions
        self.persistedQuery = persistedQuery
    }

    // MARK: - Parsing

    /// An object that names a key twice is refused, at any depth: readers disagree on which copy
    /// counts (the last here, the first in some servers), so an allow-list or a cache key could
    /// judge one `query` or variable while the upstream runs the other.
    public static func parse(_ body: UnsafeRawBufferPointer) -> Result<GraphQLRequestBody, GraphQLRequestError> {
        let document: JSONValue
        do {
            document = try JSONReader.parse(body, rejectDuplicateKeys: true)
        } catch {
            if error.isDuplicateKey {
                return .failure(GraphQLRequestError("Request body is not valid GraphQL JSON: an object names the same key twice"))
            }
            return .failure(GraphQLRequestError("Request body is not valid JSON"))
        }
        guard let object = document.objectValue else {
            return .failure(GraphQLRequestError("Request body is not valid GraphQL JSON: expected an object"))
        }
        var request = GraphQLRequestBody()
        switch member(object, "query", as: \.stringValue, expected: "a string") {
        case .success(let value): request.query = value
        case .failure(let error): return .failure(error)
        }
        switch member(object, "operationName", as: \.stringValue, expected: "a string or null") {
        case .success(let value): request.operationName = value
        case .failure(let error): return .failure(error)
        }
        switch member(object, "variables", as: \.objectValue, expected: "an object or null") {
        case .success(let value): request.variables = value
        case .failure(let error): return .failure(error)
        }
        switch member(object, "extensions", as: \.objectValue, expected: "an object or null") {
        case .success(let value): request.extensions = value
        case .failure(let error): return .failure(error)
        }
        switch PersistedQueryReference.from(extensions: request.extensions) {
        case .success(let reference): request.persistedQuery = reference
        case .failure(let error): return .failure(error)
        }
        return .success(request)
    }

    public static func parse(_ body: [UInt8]) -> Result<GraphQLRequestBody, GraphQLRequestError> {
        body.withUnsafeBytes { parse($0) }
    }

    /// The member `key` converted by `accessor`; nil when absent or null, an error when of another type.
    private static func member<Value>(_ object: JSONObject, _ key: String, as accessor: (JSONValue) -> Value?,
                                      expected: String) -> Result<Value?, GraphQLRequestError> {
        guard let value = object[key], !value.isNull else { return .success(nil) }
        guard let converted = accessor(value) else {
            return .failure(GraphQLRequestError(
                "Request body is not valid GraphQL JSON: \"\(key)\" must be \(expected)"))
        }
        return .success(converted)
    }
}
