import GatehouseGraphQL

/// One problem found while loading the operations directory: `file:line:column: message`, or
/// `file: message` when it concerns a whole file or directory.
public typealias OperationLoadIssue = GraphQLFileIssue

/// Every problem of an operations directory at once, one `file:line:column: message` per line.
public typealias OperationLoadErrors = GraphQLFileIssues
