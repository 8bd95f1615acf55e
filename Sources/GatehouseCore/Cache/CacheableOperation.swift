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
            if let held = fromHeldBody(rewritten, registry: registry) { return held }
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

    /// The marker between the query text and the name in a body the gateway wrote for a held
    /// operation (`PersistedOperation.requestBodyPrefix`). Inside the quoted query text every
    /// `"` is escaped, so its first occurrence is the boundary.
    static let operationNameMarker = Array(#"","operationName":""#.utf8)

    /// The fast path for bodies the gateway wrote from a held operation: the name is found
    /// after the marker and the body checked against that operation's fixed prefix, so only the
    /// variables are parsed (not the document text). nil: not such a body.
    static func fromHeldBody(_ body: [UInt8], registry: OperationRegistry) -> CacheableOperation? {
        let marker = operationNameMarker
        guard let start = firstIndex(of: marker, in: body) else { return nil }
        let nameStart = start + marker.count
        guard let nameEnd = body[nameStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        let name = String(decoding: body[nameStart..<nameEnd], as: UTF8.self)
        guard let held = registry.operation(named: name), body.count > held.requestBodyPrefix.count,
              body.starts(with: held.requestBodyPrefix), body.last == UInt8(ascii: "}") else { return nil }
        let variablesBytes = body[held.requestBodyPrefix.count..<(body.count - 1)]
        guard let variables = try? JSONReader.parse(Array(variablesBytes)), case .object = variables else { return nil }
        return CacheableOperation(name: name, isQuery: held.kind == .query, isMutation: held.kind == .mutation,
                                  documentDigest: held.sha256Hex, canonicalVariables: CanonicalJSON.bytes(variables))
    }

    private static func firstIndex(of marker: [UInt8], in body: [UInt8]) -> Int? {
        guard body.count >= marker.count, let head = marker.first else { return nil }
        var index = 0
        let lastStart = body.count - marker.count
        while index <= lastStart {
            if body[index] == head && body[index..<(index + marker.count)].elementsEqual(marker) { return index }
            index += 1
        }
        return nil
    }

    /// A document: its kind from the registry when held, else from parsing it.
    static func fromDocument(_ text: String, operationName: String?, variables: JSONObject?,
                             registry: OperationRegistry) -> CacheableOperation? {
        let canonical = CanonicalJSON.bytes(.object(variables ?? JSONObject()))
        if let name = operationName, let held = registry.operation(named: name), held.text == text {
            // The held text's digest was computed once, when the operations were loaded.
            return CacheableOperation(name: name, isQuery: held.kind == .query, isMutation: held.kind == .mutation,
                                      documentDigest: held.sha256Hex, canonicalVariables: canonical)
        }
        let digest = PersistedQueryHash.sha256Hex(text)
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

/// A GET call's operation as the operation policy identified it, kept with its translation
/// (`PreparedCallMemo`): with what its key needs of the route and the operation, so the cache
/// phase digests only the request's own parts (vary headers, scope). An object, so a memo
/// lookup copies one reference, not the digest state.
final class IdentifiedOperation: Sendable {
    let operation: CacheableOperation
    let keyPart: CacheKeyBuilder.KnownPart?

    init(operation: CacheableOperation, keyPart: CacheKeyBuilder.KnownPart?) {
        self.operation = operation
        self.keyPart = keyPart
    }
}
