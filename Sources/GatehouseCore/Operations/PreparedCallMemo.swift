import Glibc

/// GET calls this worker has already translated. On a route that turns
/// `GET /ops/<name>?<variables>` into an upstream request, the same route and request target
/// always get the same decision: a GET has no body, and the policy and the held operations are
/// fixed for a snapshot. So a repeated call skips decoding its query string, coercing its
/// variables, writing the upstream body and (on cached routes) identifying the operation again,
/// which together were most of the cost of a cache hit.
///
/// Per worker, so no locks; emptied when the worker takes a new snapshot, and only consulted by
/// requests running under the worker's current one. Only successful translations are kept.
final class PreparedCallMemo {
    struct Call {
        let rewrite: UpstreamRewrite
        /// What the cache needs of the operation; nil on routes without a cache or invalidation.
        let operation: IdentifiedOperation?
    }

    /// A class, so that a lookup retains one object rather than each of its arrays in turn.
    private final class Entry {
        let route: Int
        let target: [UInt8]
        let call: Call

        init(route: Int, target: [UInt8], call: Call) {
            self.route = route
            self.target = target
            self.call = call
        }
    }

    /// Distinct calls kept per worker before starting over: an app has a few hundred operations
    /// and far fewer variable combinations in a hot set.
    static let capacity = 1024
    /// Longer targets (large variables) are translated each time rather than held.
    static let maxTargetBytes = 1024

    private var entries: [Int: Entry] = [:]

    var count: Int { entries.count }

    func lookup(route: Int, target: UnsafeRawBufferPointer) -> Call? {
        guard !entries.isEmpty, let entry = entries[Self.slot(route, target)], entry.route == route,
              entry.target.count == target.count,
              entry.target.withUnsafeBytes({ memcmp($0.baseAddress!, target.baseAddress!, target.count) == 0 }) else {
            return nil
        }
        return entry.call
    }

    func store(route: Int, target: UnsafeRawBufferPointer, _ call: Call) {
        guard target.count <= Self.maxTargetBytes, target.count > 0 else { return }
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[Self.slot(route, target)] = Entry(route: route, target: Array(target), call: call)
    }

    func removeAll() { entries.removeAll() }

    private static func slot(_ route: Int, _ target: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(route)
        hasher.combine(bytes: target)
        return hasher.finalize()
    }
}
