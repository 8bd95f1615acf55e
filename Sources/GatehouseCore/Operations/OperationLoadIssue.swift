import GatehouseGraphQL

/// One problem found while loading the operations directory: `file:line:column: message`, or
/// `file: message` when it concerns a whole file or directory.
public struct OperationLoadIssue: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// nil when the issue concerns the whole file.
    public var position: GraphQLSourcePosition?
    public var message: String

    public init(file: String, position: GraphQLSourcePosition?, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    public var description: String {
        if let position { return "\(file):\(position): \(message)" }
        return "\(file): \(message)"
    }
}

/// Every problem of an operations directory at once, one `file:line:column: message` per line.
public struct OperationLoadErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var issues: [OperationLoadIssue]

    public init(_ issues: [OperationLoadIssue]) { self.issues = issues }

    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
