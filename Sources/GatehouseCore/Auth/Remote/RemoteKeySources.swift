import GatehouseConfig
import GatehouseIO

/// The remote key sets of the process, by provider and settings: a reload that keeps a provider
/// as it was keeps its fetched keys and refresh schedule (no 503 window, no extra fetch).
/// Entries are weak; a source lives as long as a configuration uses it.
final class RemoteKeySources: Sendable {
    static let process = RemoteKeySources()

    private struct Key: Hashable {
        let provider: String
        let settings: String
    }

    private let sources = Locked<[Key: WeakKeySource]>([:])

    func source(providerName: String, config: RemoteKeysConfig, algorithms: [JWTAlgorithm]) throws(TLSError) -> RemoteKeySource {
        let key = Key(provider: providerName,
                      settings: "\(config)|\(algorithms.map(\.rawValue))")
        if let existing = sources.withLock({ $0[key]?.source }) { return existing }
        let created = try RemoteKeySource(providerName: providerName, config: config, algorithms: algorithms)
        return sources.withLock { table in
            if let raced = table[key]?.source { return raced }
            table = table.filter { $0.value.source != nil }
            table[key] = WeakKeySource(created)
            return created
        }
    }
}
