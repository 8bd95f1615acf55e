import GatehouseGraphQL

/// Resolves operations against a schema: each field must exist on its parent type with the
/// arguments written, leaf fields must not have selections and composite ones must, fragments and
/// inline fragments must be able to apply, variables must have input types and be defined where
/// used, and a response key must name one field. Fragments narrowing an interface or union need
/// `__typename` next to them, so the generated code can tell which type arrived.
///
/// Every problem is reported, each at its `file:line:column` in the operation files.
public struct OperationResolver {
    let schema: GraphQLSchema
    var fragments: [String: FragmentNode] = [:]
    var issues: [SDKIssue] = []
    /// Variables of the operation being resolved.
    var definedVariables: Set<String> = []
    /// Fragments being expanded, to stop on a cycle (the gateway refuses those already).
    var expanding: [String] = []

    /// Reads the operation files and resolves the named operations in `names` (all of them when nil).
    public static func resolve(files: [(path: String, text: String)], schema: GraphQLSchema,
                               names: Set<String>? = nil) -> Result<[ResolvedOperation], SDKIssues> {
        var documents = OperationDocuments()
        var issues: [SDKIssue] = []
        for file in files {
            do {
                try OperationDocumentReader.read(file.text, file: file.path, into: &documents)
            } catch {
                issues.append(error)
            }
        }
        guard issues.isEmpty else { return .failure(SDKIssues(issues)) }
        var resolver = OperationResolver(schema: schema)
        for fragment in documents.fragments where resolver.fragments[fragment.name] == nil {
            resolver.fragments[fragment.name] = fragment
        }
        var resolved: [ResolvedOperation] = []
        for operation in documents.operations {
            guard let name = operation.name, names?.contains(name) ?? true else { continue }
            if let result = resolver.resolve(operation, name: name) { resolved.append(result) }
        }
        var unique: [SDKIssue] = []
        for issue in resolver.issues where !unique.contains(issue) { unique.append(issue) }
        guard unique.isEmpty else { return .failure(SDKIssues(unique.inSourceOrder)) }
        return .success(resolved.sorted { $0.name < $1.name })
    }

    init(schema: GraphQLSchema) {
        self.schema = schema
    }

    // MARK: - Operations

    mutating func resolve(_ operation: OperationNode, name: String) -> ResolvedOperation? {
        guard let rootName = schema.rootType(for: operation.kind) else {
            report(operation.location, "the schema has no \(operation.kind.rawValue) type")
            return nil
        }
        var variables: [ResolvedVariable] = []
        definedVariables = []
        for variable in operation.variables {
            if !definedVariables.insert(variable.name).inserted {
                report(variable.location, "variable \"$\(variable.name)\" is defined twice")
            }
            let typeName = variable.type.namedType
            guard let type = schema[typeName] else {
                report(variable.location, "unknown type \"\(typeName)\" of variable \"$\(variable.name)\"")
                continue
            }
            guard type.isInput else {
                report(variable.location, "variable \"$\(variable.name)\" must have an input type, but \"\(typeName)\" is an output type")
                continue
            }
            variables.append(ResolvedVariable(name: variable.name, type: variable.type, hasDefault: variable.hasDefault))
        }
        let issueCount = issues.count
        let selection = resolveSet(operation.selections, on: rootName)
        guard issues.count == issueCount, variables.count == operation.variables.count else { return nil }
        return ResolvedOperation(name: name, kind: operation.kind, variables: variables, selection: selection,
                                 location: operation.location)
    }

    mutating func report(_ location: OperationLocation, _ message: String) {
        issues.append(SDKIssue(file: location.file, position: location.position, message: message))
    }
}
