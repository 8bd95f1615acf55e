/// Why a GraphQL document is not valid executable-document syntax (GraphQL spec, October 2021),
/// and where: line and column counted from 1, columns in Unicode scalars.
public struct GraphQLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var position: GraphQLSourcePosition

    public init(_ message: String, at position: GraphQLSourcePosition) {
        self.message = message
        self.position = position
    }

    /// `line:column: message`.
    public var description: String { "\(position): \(message)" }
}

/// A place in a GraphQL document: line and column counted from 1, columns in Unicode scalars.
public struct GraphQLSourcePosition: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}
