import GatehouseGraphQL
import GatehouseHTTP
// Calls to AEM upstreams: AEM holds the operations itself, so a call by name becomes its
// canonical persisted-query GET without the gateway knowing the document.

extension OperationPolicy {
    static let aemExecutePrefix = "graphql/execute.json/"

    // MARK: - AEM upstreams

    func decideAEM(_ call: OperationCall, pathName: String?, registry: OperationRegistry) -> OperationDecision {
        if let pathName {
            guard !pathName.contains("/") else {
                return .refuse(GatewayError(.notFound, "No operation at this path"))
            }
            if call.query != nil || call.persistedQuery != nil {
                return .refuse(GatewayError(.badRequest,
                    "A call by name cannot carry \"query\" or \"extensions\" parameters"))
            }
            if let name = call.operationName, name != pathName {
                return .refuse(GatewayError(.badRequest,
                    "\"operationName\" does not match the operation \"\(pathName)\" named by the path"))
            }
            return callAEM(pathName, call: call)
        }
        if let reference = call.persistedQuery {
            // AEM has no APQ: a bare hash is unknown; with its text it is free-form text.
            guard let query = call.query else { return persistedQueryNotFound() }
            guard hashMatches(reference, query: query) else {
                return .refuse(GatewayError(.badRequest, "provided sha does not match query"))
            }
            return decideFreeForm(query: query, operationName: call.operationName, isGet: call.isGet,
                                  registry: registry)
        }
        if let query = call.query {
            return decideFreeForm(query: query, operationName: call.operationName, isGet: call.isGet,
                                  registry: registry)
        }
        if let name = call.operationName {
            return callAEM(name, call: call)
        }
        return namesNothing()
    }

    /// `<prefix>/graphql/execute.json/<aem_config>/<name>;k=v…` goes through as it is, once the
    /// `operations` list approved the name. With a list, nothing else does: another
    /// configuration's query of a listed name, more segments before the name, or parameters on
    /// the configuration would each reach an operation the list never named (AEM and the servlet
    /// containers in front of it read `;` parameters and extra segments in their own ways).
    func passThroughAEM(_ remainder: String) -> OperationDecision {
        guard allowList != nil else { return .forwardUnchanged }
        let segments = remainder.utf8.dropFirst(Self.aemExecutePrefix.utf8.count)
            .split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard segments.count == 2,
              let config = PercentDecoding.decode(Array(segments[0])[...], plusIsSpace: false),
              config == aemConfig, !config.contains(";") else {
            return .refuse(GatewayError(.operationNotAllowed, "Only \(Self.aemExecutePrefix)\(aemConfig ?? "<aem_config>")/<name> "
                                                              + "of a listed operation passes through on this route"))
        }
        let rawName = segments[1].prefix { $0 != UInt8(ascii: ";") }
        let name = PercentDecoding.decode(Array(rawName)[...], plusIsSpace: false)
        guard let name, !name.contains("/") else { return .refuse(notAllowed(name)) }
        return allows(name) ? .forwardUnchanged : .refuse(notAllowed(name))
    }

    /// The canonical `GET /graphql/execute.json/<config>/<name>;k=v…` for a call by name.
    private func callAEM(_ name: String, call: OperationCall) -> OperationDecision {
        guard allows(name) else { return .refuse(notAllowed(name)) }
        // A name is one segment under aem_config: a slash, even sent encoded, could climb out of
        // it where a later hop decodes `%2F` (`../secret`).
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
            return .refuse(GatewayError(.badRequest, "Invalid operation name"))
        }
        guard let aemConfig else {
            return .refuse(GatewayError(.internalError, "The AEM upstream has no aem_config"))
        }
        var variables = call.variables ?? JSONObject()
        // Query parameters are AEM variables as text; they win over `variables=` JSON.
        for parameter in call.parameters {
            guard parameter.values.count == 1, let value = parameter.values.first else {
                return .refuse(GatewayError(.badRequest, "Variable \"$\(parameter.name)\" is given more than once"))
            }
            variables[parameter.name] = .string(value)
        }
        return .aemGet(pathAndQuery: AEMPersistedQueryPath.build(config: aemConfig, operationName: name,
                                                                 variables: variables))
    }
}
