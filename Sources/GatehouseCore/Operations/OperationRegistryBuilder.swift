import GatehouseGraphQL

/// Turns parsed operation files into an `OperationRegistry`, checking what makes a set of
/// persisted operations usable: every operation named, names unique across files, every spread
/// fragment defined exactly once, no fragment cycles. All problems are collected, none stops early.
struct OperationRegistryBuilder {
    /// A definition together with the file it came from.
    private struct Located<Definition> {
        var fileIndex: Int
        var definition: Definition
    }

    private struct SourceFile {
        var path: String
        var bytes: [UInt8]
        var operationCount: Int
    }

    private var files: [SourceFile] = []
    private var operations: [Located<GraphQLOperationDefinition>] = []
    private var fragments: [String: Located<GraphQLFragmentDefinition>] = [:]
    /// Fragment names in definition order, so checks and issues come out deterministically.
    private var fragmentOrder: [String] = []
    private var operationNames: [String: Located<GraphQLOperationDefinition>] = [:]
    /// (file index, issue), sorted by file then position when the build finishes.
    private var issues: [(fileIndex: Int, issue: OperationLoadIssue)] = []

    // MARK: - Adding files

    mutating func add(file path: String, text: String) {
        let fileIndex = files.count
        let bytes = Array(text.utf8)
        files.append(SourceFile(path: path, bytes: bytes, operationCount: 0))
        let document: GraphQLDocument
        do {
            document = try GraphQLParser.parse(utf8: bytes)
        } catch {
            report(fileIndex, error.position, error.message)
            return
        }
        files[fileIndex].operationCount = document.operations.count
        for operation in document.operations {
            guard let name = operation.name else {
                report(fileIndex, operation.position,
                       "anonymous \(operation.kind.rawValue): persisted operations must be named")
                continue
            }
            if let first = operationNames[name] {
                report(fileIndex, operation.position,
                       "duplicate operation name \"\(name)\" (first defined at \(location(first.fileIndex, first.definition.position)))")
                continue
            }
            let located = Located(fileIndex: fileIndex, definition: operation)
            operationNames[name] = located
            operations.append(located)
        }
        for fragment in document.fragments {
            if let first = fragments[fragment.name] {
                report(fileIndex, fragment.position,
                       "duplicate fragment name \"\(fragment.name)\" (first defined at \(location(first.fileIndex, first.definition.position)))")
                continue
            }
            fragments[fragment.name] = Located(fileIndex: fileIndex, definition: fragment)
            fragmentOrder.append(fragment.name)
        }
    }

    // MARK: - Building

    mutating func build() -> Result<OperationRegistry, OperationLoadErrors> {
        checkSpreads()
        checkFragmentCycles()
        guard issues.isEmpty else {
            let ordered = issues.enumerated().sorted { left, right in
                let (a, b) = (left.element, right.element)
                if a.fileIndex != b.fileIndex { return a.fileIndex < b.fileIndex }
                let (pa, pb) = (a.issue.position ?? .init(line: 0, column: 0),
                                b.issue.position ?? .init(line: 0, column: 0))
                if pa.line != pb.line { return pa.line < pb.line }
                if pa.column != pb.column { return pa.column < pb.column }
                return left.offset < right.offset
            }
            return .failure(OperationLoadErrors(ordered.map(\.element.issue)))
        }
        var persisted: [PersistedOperation] = []
        var fileHashes: [String: String] = [:]
        for located in operations {
            let operation = located.definition
            guard let name = operation.name else { continue }
            var parts = [text(of: operation.sourceRange, in: located.fileIndex)]
            for fragmentName in fragmentClosure(of: operation.fragmentSpreads).sorted() {
                guard let fragment = fragments[fragmentName] else { continue }
                parts.append(text(of: fragment.definition.sourceRange, in: fragment.fileIndex))
            }
            persisted.append(PersistedOperation(name: name, kind: operation.kind,
                                                text: parts.joined(separator: "\n"),
                                                variables: operation.variables))
            let file = files[located.fileIndex]
            if file.operationCount == 1 {
                fileHashes[PersistedQueryHash.sha256Hex(file.bytes)] = name
            }
        }
        return .success(OperationRegistry(operations: persisted, additionalHashes: fileHashes))
    }

    // MARK: - Fragments

    /// Every spread names a fragment defined somewhere in the directory.
    private mutating func checkSpreads() {
        var definitions: [(fileIndex: Int, spreads: [GraphQLFragmentSpread])] =
            operations.map { ($0.fileIndex, $0.definition.fragmentSpreads) }
        for name in fragmentOrder {
            if let fragment = fragments[name] {
                definitions.append((fragment.fileIndex, fragment.definition.fragmentSpreads))
            }
        }
        for (fileIndex, spreads) in definitions {
            for spread in spreads where fragments[spread.name] == nil {
                report(fileIndex, spread.position, "unknown fragment \"\(spread.name)\"")
            }
        }
    }

    /// A fragment that spreads itself, directly or through others, has no finite expansion.
    /// Each cycle is reported once, at the fragment where the search entered it.
    private mutating func checkFragmentCycles() {
        for cycle in fragmentCycles() {
            guard let first = cycle.first, let fragment = fragments[first] else { continue }
            report(fragment.fileIndex, fragment.definition.position,
                   "fragment cycle: \(cycle.joined(separator: " -> "))")
        }
    }

    /// Each cycle as the fragment names along it, ending where it started.
    private func fragmentCycles() -> [[String]] {
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        var path: [String] = []

        func visit(_ name: String, into found: inout [[String]]) {
            guard let fragment = fragments[name] else { return }
            marks[name] = .visiting
            path.append(name)
            for spread in fragment.definition.fragmentSpreads {
                switch marks[spread.name] {
                case .visiting:
                    if let start = path.firstIndex(of: spread.name) {
                        found.append(Array(path[start...]) + [spread.name])
                    }
                case .done:
                    continue
                case nil:
                    visit(spread.name, into: &found)
                }
            }
            path.removeLast()
            marks[name] = .done
        }

        var cycles: [[String]] = []
        for name in fragmentOrder where marks[name] == nil {
            visit(name, into: &cycles)
        }
        return cycles
    }

    /// The names of every fragment reachable from `spreads`.
    private func fragmentClosure(of spreads: [GraphQLFragmentSpread]) -> Set<String> {
        var reached: Set<String> = []
        var pending = spreads.map(\.name)
        while let name = pending.popLast() {
            guard reached.insert(name).inserted, let fragment = fragments[name] else { continue }
            pending += fragment.definition.fragmentSpreads.map(\.name)
        }
        return reached
    }

    // MARK: - Helpers

    private func text(of range: Range<Int>, in fileIndex: Int) -> String {
        String(decoding: files[fileIndex].bytes[range], as: UTF8.self)
    }

    private func location(_ fileIndex: Int, _ position: GraphQLSourcePosition) -> String {
        "\(files[fileIndex].path):\(position)"
    }

    private mutating func report(_ fileIndex: Int, _ position: GraphQLSourcePosition?, _ message: String) {
        issues.append((fileIndex, OperationLoadIssue(file: files[fileIndex].path, position: position,
                                                     message: message)))
    }
}
