import GatehouseGraphQL

/// One problem in the schema or an operation file: `file:line:column: message`.
public typealias SDKIssue = GraphQLFileIssue

/// Every problem found at once, one per line.
public typealias SDKIssues = GraphQLFileIssues

extension [SDKIssue] {
    /// Sorted by file, then line and column; issues without a position first; otherwise stable.
    var inSourceOrder: [SDKIssue] {
        enumerated().sorted { left, right in
            let (a, b) = (left.element, right.element)
            if a.file != b.file { return a.file < b.file }
            let pa = a.position.map { ($0.line, $0.column) } ?? (0, 0)
            let pb = b.position.map { ($0.line, $0.column) } ?? (0, 0)
            if pa != pb { return pa < pb }
            return left.offset < right.offset
        }.map(\.element)
    }
}
