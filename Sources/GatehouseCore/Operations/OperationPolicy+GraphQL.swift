import GatehouseGraphQL

// Calls to GraphQL upstreams: named, hashed and path calls resolve to a stored operation, which
// travels upstream as a normal GraphQL POST.

extension OperationPolicy {
    // MARK: - GraphQL upstreams

    func decideGraphQL(_ call: OperationCall, pathName: String?,
                       registry: OperationRegistry) -> OperationDecision {
        if let pathName {
            if let operation = registry.operation(named: pathName) {
                return callByPath(operation, call: call)
            }
            if persisted == .only {
                guard allows(pathName) else { return .refuse(notAllowed(pathName)) }
                return .refuse(GatewayError(.notFound, "Unknown operation \"\(pathName)\""))
            }
            // On `allow` a path that names no operation is an ordinary upstream path.
        }
        if let reference = call.persistedQuery {
            return callByHash(reference, call: call, registry: registry)
        }
        if let query = call.query {
            return decideFreeForm(query: query, operationName: call.operationName, isGet: call.isGet,
                                  registry: registry)
        }
        if let name = call.operationName {
            return callByName(name, call: call, registry: registry)
        }
        return namesNothing()
    }

    /// `GET <prefix>/<name>?var=value`: the path names the operation, the query string holds
    /// its variables.
    private func callByPath(_ operation: PersistedOperation, call: OperationCall) -> OperationDecision {
        if call.query != nil || call.persistedQuery != nil {
            return .refuse(GatewayError(.badRequest,
                "A call by name cannot carry \"query\" or \"extensions\" parameters"))
        }
        if let name = call.operationName, name != operation.name {
            return .refuse(GatewayError(.badRequest,
                "\"operationName\" does not match the operation \"\(operation.name)\" named by the path"))
        }
        return callStored(operation, call: call)
    }

    /// `{"operationName":"x","variables":{…}}` without query text.
    private func callByName(_ name: String, call: OperationCall, registry: OperationRegistry) -> OperationDecision {
        guard allows(name) else { return .refuse(notAllowed(name)) }
        guard let operation = registry.operation(named: name) else {
            if persisted == .only {
                return .refuse(GatewayError(.badRequest, "Unknown operation \"\(name)\""))
            }
            return .forwardUnchanged
        }
        return callStored(operation, call: call)
    }

    /// APQ / trusted documents: `extensions.persistedQuery.sha256Hash`, with or without the text.
    private func callByHash(_ reference: PersistedQueryReference, call: OperationCall,
                            registry: OperationRegistry) -> OperationDecision {
        if let query = call.query {
            guard hashMatches(reference, query: query) else {
                return .refuse(GatewayError(.badRequest, "provided sha does not match query"))
            }
            if let operation = registry.operation(sha256Hex: reference.sha256Hash) {
                return callStored(operation, call: call)
            }
            // An APQ registration of text the gateway does not hold: free-form text after all.
            return decideFreeForm(query: query, operationName: call.operationName, isGet: call.isGet,
                                  registry: registry)
        }
        guard let operation = registry.operation(sha256Hex: reference.sha256Hash) else {
            return persistedQueryNotFound()
        }
        return callStored(operation, call: call)
    }

    /// A stored operation as a GraphQL POST: allowed by name, no mutation over GET, variables
    /// typed from the query string for GET and taken as given for POST.
    private func callStored(_ operation: PersistedOperation, call: OperationCall) -> OperationDecision {
        guard allows(operation.name) else { return .refuse(notAllowed(operation.name)) }
        guard call.isGet else {
            return .forwardBody(operation.requestBody(variables: call.variables))
        }
        if operation.kind == .mutation { return .refuse(mutationOverGet()) }
        switch GraphQLVariableCoercion.variables(parameters: call.parameters, json: call.variables,
                                                 definitions: operation.variables,
                                                 operationName: operation.name) {
        case .success(let variables):
            return .forwardBody(operation.requestBody(variables: variables))
        case .failure(let error):
            return .refuse(GatewayError(error))
        }
    }
}
