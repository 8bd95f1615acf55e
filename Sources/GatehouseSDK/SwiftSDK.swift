import GatehouseConfig
import GatehouseGraphQL

/// `gatehouse sdk swift`: a typed Swift client for the operations a gateway holds, shaped by its
/// schema and routed by its config.
public enum SwiftSDK {
    /// What generation produced: the package's files, and notes about operations left out.
    public struct Output: Sendable {
        public var files: [GeneratedFile]
        public var warnings: [String]
    }

    /// - Parameters:
    ///   - schemaText: the SDL, read from `options.schemaPath`.
    ///   - operationFiles: the operation files of `operations.dir`, as the gateway reads them.
    ///   - heldOperations: the names the gateway registered from those files.
    public static func generate(config: GatewayConfig, schemaText: String,
                                operationFiles: [(path: String, text: String)], heldOperations: Set<String>,
                                options: SwiftSDKOptions) -> Result<Output, SDKIssues> {
        let schema: GraphQLSchema
        switch SDLReader.read(schemaText, file: options.schemaPath) {
        case .success(let read): schema = read
        case .failure(let issues): return .failure(issues)
        }
        let operations: [ResolvedOperation]
        switch OperationResolver.resolve(files: operationFiles, schema: schema, names: heldOperations) {
        case .success(let resolved): operations = resolved
        case .failure(let issues): return .failure(issues)
        }
        var warnings: [String] = []
        var routed: [(operation: ResolvedOperation, route: OperationRoute)] = []
        for operation in operations {
            if operation.kind == .subscription {
                warnings.append("\(operation.location): subscription \"\(operation.name)\" skipped: subscriptions do not travel over GET or POST calls by name")
                continue
            }
            guard let route = RoutePlanner.route(for: operation.name, kind: operation.kind, config: config) else {
                warnings.append("\(operation.location): \(operation.kind.rawValue) \"\(operation.name)\" skipped: no GraphQL route calls it by name (persisted other than off, operations list naming it)")
                continue
            }
            routed.append((operation, route))
        }
        let generator = SwiftPackageGenerator(schema: schema, options: options)
        return .success(Output(files: generator.generate(routed), warnings: warnings))
    }
}
