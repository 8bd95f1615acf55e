import GatehouseHTTP
import GatehouseGraphQL

/// The operation a request runs, as the cache needs it: its name (for purges and
/// invalidation), whether it is a query, the document sent (its digest is part of the key) and
/// the variables in canonical form. nil when the gateway cannot tell — such requests bypass.
struct CacheableOperation: Equatable {
    var name: String
    var isQuery: Bool
    var isMutation: Bool
    var documentDigest: String
    var canonicalVariables: [UInt8]

    /// What the operation policy decided (its rewrite), else the request as the client sent it.
    static func identify(rewrite: UpstreamRewrite?, method: OperationPolicy.RequestMethod, query: ArraySlice<UInt8>?,
                         body: UnsafeRawBufferPointer?, registry: OperationRegistry) -> CacheableOperation? {
        if let rewritten = rewrite?.body {
            // A held operation by name or hash, or a GET call: the body the gateway wrote.
            guard case .success(let request) = GraphQLRequestBody.parse(rewritten), let text = request.query else { return nil }
            return fromDocument(text, operationName: request.operationName, variables: request.variables, registry: registry)
        }
        if let target = rewrite?.target {
            return fromAEMTarget(target)
        }
        guard case .success(let call) = OperationCall.from(method: method, query: query, body: body),
              let text = call.query else { return nil }
        return fromDocument(text, operationName: call.operationName, variables: call.variables, registry: registry)
    }

    /// A document: its kind from the registry when held, else from parsing it.
    static func fromDocument(_ text: String, operationName: String?, variables: JSONObject?,
                             registry: OperationRegistry) -> CacheableOperation? {
        let canonical = CanonicalJSON.bytes(.object(variables ?? JSONObject()))
        let digest = PersistedQueryHash.sha256Hex(text)
        if let name = operationName, let held = registry.operation(named: name), held.text == text {
            return CacheableOperation(name: name, isQuery: held.kind == .query, isMutation: held.kind == .mutation,
                                      documentDigest: digest, canonicalVariables: canonical)
        }
        guard let document = try? GraphQLParser.parse(text),
              case .success(let operation) = document.operationToExecute(named: operationName) else { return nil }
        return CacheableOperation(name: operation.name ?? "", isQuery: operation.kind == .query,
                                  isMutation: operation.kind == .mutation, documentDigest: digest,
                                  canonicalVariables: canonical)
    }

    /// An AEM call by name: `/graphql/execute.json/<config>/<name>;k=v…` is already one
    /// canonical URL per call (sorted, encoded variables), so it stands for document and
    /// variables; AEM persisted queries are queries.
    static func fromAEMTarget(_ target: [UInt8]) -> CacheableOperation? {
        let path = target.split(separator: UInt8(ascii: "?"), maxSplits: 1).first ?? []
        guard let last = path.split(separator: UInt8(ascii: "/")).last else { return nil }
        let nameBytes = last.split(separator: UInt8(ascii: ";"), maxSplits: 1).first ?? []
        let name = PercentDecoding.decode(Array(nameBytes)[...], plusIsSpace: false) ?? String(decoding: nameBytes, as: UTF8.self)
        return CacheableOperation(name: name, isQuery: true, isMutation: false,
                                  documentDigest: PersistedQueryHash.sha256Hex(target), canonicalVariables: [])
    }
}
