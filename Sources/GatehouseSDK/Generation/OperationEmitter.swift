import GatehouseGraphQL

/// Writes one operation: a namespace with its `Variables` and `Data` types, and the
/// `GatehouseClient` method that calls it through the route the gateway serves it on.
struct OperationEmitter {
    let mapping: SwiftTypeMapping
    let results: ResultTypeEmitter

    struct Names {
        /// `ListMoviesByGenreQuery`.
        var typeName: String
        /// `listMoviesByGenre`, escaped when needed.
        var methodName: String
    }

    func emit(_ operation: ResolvedOperation, route: OperationRoute, names: Names, into code: inout SwiftCode) {
        let variables = operation.variables.map { variable in
            let swift = mapping.swiftType(variable.type)
            let type = variable.isOptional && !swift.hasSuffix("?") ? swift + "?" : swift
            return (variable: variable, name: SwiftNames.identifier(variable.name), type: type)
        }
        code.line("/// `\(operation.kind.rawValue) \(operation.name)`: \(describe(route)) (route `\(route.routePath)`).")
        code.block("public enum \(names.typeName)") { code in
            code.line("public static let operationName = \(SwiftNames.literal(operation.name))")
            if !variables.isEmpty {
                code.line()
                code.block("public struct Variables: Encodable, Sendable, Hashable") { code in
                    for variable in variables { code.line("public var \(variable.name): \(variable.type)") }
                    code.line()
                    let parameters = variables.map { "\($0.name): \($0.type)" + ($0.variable.isOptional ? " = nil" : "") }
                    code.block("public init(\(parameters.joined(separator: ", ")))") { code in
                        for variable in variables { code.line("self.\(variable.name) = \(variable.name)") }
                    }
                }
            }
            code.line()
            results.emit("Data", operation.selection, enclosing: [names.typeName, "Variables"], into: &code)
        }
        code.line()
        emitMethod(operation, route: route, names: names, variables: variables, into: &code)
    }

    private func emitMethod(_ operation: ResolvedOperation, route: OperationRoute, names: Names,
                            variables: [(variable: ResolvedVariable, name: String, type: String)],
                            into code: inout SwiftCode) {
        var parameters = variables.map { "\($0.name): \($0.type)" + ($0.variable.isOptional ? " = nil" : "") }
        let isQuery = operation.kind == .query
        // A GraphQL variable may itself be called fetchPolicy; the policy then takes another label.
        let policy = variables.contains { $0.name == "fetchPolicy" } ? "gatewayFetchPolicy" : "fetchPolicy"
        if isQuery { parameters.append("\(policy): FetchPolicy = .preferCache") }
        let result = "\(names.typeName).Data"
        let doorCase = route.door == .public ? ".public" : ".authenticated"
        code.block("extension GatehouseClient") { code in
            code.line("/// Calls the held \(operation.kind.rawValue) `\(operation.name)`: \(describe(route))."
                      + (isQuery ? " `\(policy)` travels as `Cache-Control`." : ""))
            code.block("public func \(names.methodName)(\(parameters.joined(separator: ", "))) async throws -> \(result)") { code in
                let variablesValue: String
                if variables.isEmpty {
                    variablesValue = "NoVariables()"
                } else {
                    let arguments = variables.map { "\($0.name): \($0.name)" }.joined(separator: ", ")
                    code.line("let variables = \(names.typeName).Variables(\(arguments))")
                    variablesValue = "variables"
                }
                switch route.method {
                case .get:
                    code.line("\(variables.isEmpty ? "let" : "var") query = QueryParameters()")
                    if variables.allSatisfy({ mapping.isQueryParameter($0.variable.type) }) {
                        for variable in variables {
                            code.line("query.append(\(SwiftNames.literal(variable.variable.name)), variables.\(variable.name))")
                        }
                    } else {
                        code.line("try query.appendJSON(\"variables\", variables)")
                    }
                    code.line("return try await get(\(result).self, path: \(SwiftNames.literal(route.path)), query: query,")
                    code.line("                     door: \(doorCase), fetchPolicy: \(policy))")
                case .post:
                    code.line("return try await post(\(result).self, path: \(SwiftNames.literal(route.path)),")
                    code.line("                      operationName: \(names.typeName).operationName, variables: \(variablesValue),")
                    code.line("                      door: \(doorCase), fetchPolicy: \(isQuery ? policy : "nil"))")
                }
            }
        }
    }

    /// `GET /ops/name, through the authenticated door`.
    private func describe(_ route: OperationRoute) -> String {
        let call = route.method == .get ? "GET \(route.path)" : "POST \(route.path) by name"
        return call + (route.door == .public ? ", through the public door" : ", through the authenticated door")
    }
}
