/// The persisted operations of `operations.dir`, looked up by name or by SHA-256 (README, "Persisted operations").
/// Immutable after loading, so one instance is shared by every event loop without locks.
public final class OperationRegistry: @unchecked Sendable {
    /// Every operation, sorted by name.
    public let operations: [PersistedOperation]
    private let operationsByName: [String: PersistedOperation]
    private let operationsByHash: [String: PersistedOperation]

    /// No operations: for configurations without `operations:`.
    public static let empty = OperationRegistry(operations: [], additionalHashes: [:])

    /// - Parameter additionalHashes: hashes other than an operation's own `sha256Hex` that also
    ///   name it (lowercase hex -> operation name), such as the hash of a whole one-operation file.
    init(operations: [PersistedOperation], additionalHashes: [String: String]) {
        self.operations = operations.sorted { $0.name < $1.name }
        var byName: [String: PersistedOperation] = [:]
        var byHash: [String: PersistedOperation] = [:]
        for operation in operations {
            byName[operation.name] = operation
            byHash[operation.sha256Hex] = operation
        }
        for (hash, name) in additionalHashes where byHash[hash] == nil {
            if let operation = byName[name] { byHash[hash] = operation }
        }
        operationsByName = byName
        operationsByHash = byHash
    }

    // MARK: - Lookups

    public var isEmpty: Bool { operations.isEmpty }

    public func operation(named name: String) -> PersistedOperation? {
        operationsByName[name]
    }

    /// Accepts upper- or lowercase hex.
    public func operation(sha256Hex hash: String) -> PersistedOperation? {
        operationsByHash[PersistedQueryHash.normalized(hash)]
    }
}
