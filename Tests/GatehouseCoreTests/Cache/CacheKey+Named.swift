@testable import GatehouseCore

extension CacheKey {
    /// A key for tests that need distinct keys, not realistic ones: the digest of one part.
    static func named(_ name: String) -> CacheKey { CacheKey(parts: [Array(name.utf8)]) }
}
