import GatehouseGraphQL
import GatehouseHTTP
// The entry point of the operation policy and the rules every upstream kind shares.
//
// Choices the README's "Persisted operations" leaves open:
// - `persisted: allow` without an `operations` list enforces nothing, so a request the gateway
//   cannot read (a body that is not GraphQL JSON: a batch, a multipart upload) is forwarded
//   unchanged for the upstream to answer; with `only` or an `operations` list it is a 400.
// - `persisted: off` translates nothing; an `operations` list is still enforced on the name the
//   request executes (its `operationName`, or the operation its query text selects).
// - Query text passes an `operations` list only when it is the stored document of an allowed
//   name (`GraphQLSameDocument`: the same tokens). The name alone proves nothing: any text can
//   call itself `appsetting`. So text for a name the gateway holds no document of is refused.
// - A call by name (body `operationName` without `query`) that the gateway does not hold is a
//   400 "Unknown operation" on `only`; on `allow` it is forwarded unchanged, since the upstream
//   may hold operations of its own. A GET path naming no operation on `only` is a 404.
// - An `operations` list is checked before the registry, so a refused name says nothing about
//   whether it exists.

extension OperationPolicy {
    // MARK: - Deciding

    /// - Parameters:
    ///   - pathRemainder: for prefix routes, the request path after the route's prefix, as sent
    ///     (percent-encoded), e.g. `listMoviesByGenre`; nil or empty for exact routes.
    ///   - query: the query string without `?`, nil when the target has none.
    ///   - body: the whole request body, nil when there is none.
    public func decide(method: RequestMethod, pathRemainder: String?, query: ArraySlice<UInt8>?,
                       body: UnsafeRawBufferPointer?, registry: OperationRegistry) -> OperationDecision {
        guard inspectsRequests else { return .forwardUnchanged }
        if persisted == .off {
            return enforceAllowList(method: method, query: query, body: body, registry: registry)
        }
        let remainder = pathRemainder.flatMap { $0.isEmpty ? nil : $0 }
        if upstreamKind == .aem, let remainder, remainder.hasPrefix(OperationPolicy.aemExecutePrefix) {
            return passThroughAEM(remainder)
        }
        let call: OperationCall
        switch OperationCall.from(method: method, query: query, body: body) {
        case .success(let parsed):
            call = parsed
        case .failure(let error):
            return enforcesNothing ? .forwardUnchanged : .refuse(error)
        }
        var pathName: String?
        if let remainder, method == .get {
            guard let name = PercentDecoding.decode(Array(remainder.utf8)[...], plusIsSpace: false) else {
                return .refuse(GatewayError(.badRequest, "The request path is not valid"))
            }
            pathName = name
        }
        switch upstreamKind {
        case .graphql:
            return decideGraphQL(call, pathName: pathName, registry: registry)
        case .aem:
            return decideAEM(call, pathName: pathName, registry: registry)
        }
    }

    /// `persisted: allow` without an `operations` list.
    var enforcesNothing: Bool {
        persisted == .allow && allowList == nil
    }

    // MARK: - Shared rules

    /// Free-form query text. `only` refuses it; otherwise it is forwarded unchanged, after the
    /// `operations` list (when there is one) has approved the operation the document executes.
    func decideFreeForm(query: String, operationName: String?, isGet: Bool,
                        registry: OperationRegistry) -> OperationDecision {
        if persisted == .only {
            return .refuse(GatewayError(.operationNotAllowed, "Only persisted operations are allowed on this route"))
        }
        guard allowList != nil else { return .forwardUnchanged }
        return approveText(query, operationName: operationName, isGet: isGet, registry: registry)
    }

    /// Query text on a route with an `operations` list: the operation it executes must be
    /// allowed, and the text must be that operation's stored document.
    private func approveText(_ query: String, operationName: String?, isGet: Bool,
                             registry: OperationRegistry) -> OperationDecision {
        switch executedOperation(query: query, operationName: operationName) {
        case .success(let operation):
            guard allows(operation.name) else { return .refuse(notAllowed(operation.name)) }
            guard let name = operation.name, let stored = registry.operation(named: name),
                  GraphQLSameDocument.compare(Array(query.utf8), stored.textBytes)
            else {
                return .refuse(GatewayError(.operationNotAllowed,
                    "Operation \"\(operation.name ?? "")\" is allowed on this route only as the gateway's stored document; "
                        + "send its operationName without query text"))
            }
            if isGet && operation.kind == .mutation { return .refuse(mutationOverGet()) }
            return .forwardUnchanged
        case .failure(let error):
            return .refuse(error)
        }
    }

    /// The operation a free-form document executes, found with the GraphQL parser.
    func executedOperation(query: String, operationName: String?) -> Result<GraphQLOperationDefinition, GatewayError> {
        let document: GraphQLDocument
        do {
            document = try GraphQLParser.parse(query)
        } catch {
            return .failure(GatewayError(.badRequest, "GraphQL syntax error at \(error.position): \(error.message)"))
        }
        return document.operationToExecute(named: operationName).mapError(GatewayError.init)
    }

    /// APQ: a hash with query text must be that text's SHA-256.
    func hashMatches(_ reference: PersistedQueryReference, query: String) -> Bool {
        PersistedQueryHash.sha256Hex(query) == PersistedQueryHash.normalized(reference.sha256Hash)
    }

    func mutationOverGet() -> GatewayError {
        GatewayError(.methodNotAllowed(allow: ["POST"]), "Mutations cannot be sent with GET; use POST")
    }

    func namesNothing() -> OperationDecision {
        if enforcesNothing { return .forwardUnchanged }
        return .refuse(GatewayError(.badRequest, "The request names no operation"))
    }

    func persistedQueryNotFound() -> OperationDecision {
        .refuse(GatewayError(.persistedQueryNotFound, "PersistedQueryNotFound"))
    }

    // MARK: - persisted: off

    /// Nothing is translated; only the `operations` list is enforced on the executed name.
    private func enforceAllowList(method: RequestMethod, query: ArraySlice<UInt8>?,
                                  body: UnsafeRawBufferPointer?, registry: OperationRegistry) -> OperationDecision {
        let call: OperationCall
        switch OperationCall.from(method: method, query: query, body: body) {
        case .success(let parsed): call = parsed
        case .failure(let error): return .refuse(error)
        }
        guard let text = call.query else {
            return allows(call.operationName) ? .forwardUnchanged : .refuse(notAllowed(call.operationName))
        }
        return approveText(text, operationName: call.operationName, isGet: call.isGet, registry: registry)
    }
}
