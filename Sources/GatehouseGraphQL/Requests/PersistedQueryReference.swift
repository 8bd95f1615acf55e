/// `extensions.persistedQuery` of an Apollo APQ / trusted-documents request.
public struct PersistedQueryReference: Sendable, Equatable {
    /// As the client sent it (normally 64 lowercase hex digits).
    public var sha256Hash: String
    public var version: Int

    public init(sha256Hash: String, version: Int = 1) {
        self.sha256Hash = sha256Hash
        self.version = version
    }

    /// The reference in a request's `extensions`, nil when it has none. Version 1 is the only
    /// protocol there is; a missing version is taken as 1.
    static func from(extensions: JSONObject?) -> Result<PersistedQueryReference?, GraphQLRequestError> {
        guard let member = extensions?["persistedQuery"], !member.isNull else { return .success(nil) }
        guard let object = member.objectValue else {
            return .failure(GraphQLRequestError("\"extensions.persistedQuery\" must be an object"))
        }
        guard let hash = object["sha256Hash"]?.stringValue else {
            return .failure(GraphQLRequestError("\"extensions.persistedQuery.sha256Hash\" must be a string"))
        }
        if let version = object["version"], !version.isNull, version.numberLexeme != "1" {
            return .failure(GraphQLRequestError("Unsupported persisted query version"))
        }
        return .success(PersistedQueryReference(sha256Hash: hash))
    }
}
