import GatehouseIO

/// How many times each operation's entries were dropped by a mutation (`cache.invalidate`). A
/// fill notes its operation's count when it goes upstream and stores only if the count is the
/// same when its response is whole: a query that read the data before a mutation changed it must
/// not be stored after the mutation dropped the entries, where it would be served as fresh for
/// `max_age`. Per process: with the Redis store, another replica's mutation is not seen here.
final class CacheInvalidationCounts: Sendable {
    private let counts = Locked<[String: UInt64]>([:])

    func count(of operation: String) -> UInt64 {
        counts.withLock { $0[operation] ?? 0 }
    }

    func record(_ operations: [String]) {
        counts.withLock { counts in
            for operation in operations { counts[operation, default: 0] &+= 1 }
        }
    }
}
