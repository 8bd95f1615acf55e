/// One problem in a GraphQL file (an operation file, a schema): `file:line:column: message`, or
/// `file: message` when it concerns the whole file or directory.
public struct GraphQLFileIssue: Error, Sendable, Equatable, CustomStringConvertible {
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

/// Every problem of a set of GraphQL files at once, one `file:line:column: message` per line.
public struct GraphQLFileIssues: Error, Sendable, Equatable, CustomStringConvertible {
    public var issues: [GraphQLFileIssue]

    public init(_ issues: [GraphQLFileIssue]) { self.issues = issues }

    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
