import GatehouseHTTP

/// GET calls this worker has already translated. On a route that turns
/// `GET /ops/<name>?<variables>` into an upstream request, the same route and request target
/// always get the same decision: a GET has no body, and the policy and the held operations are
/// fixed for a snapshot. So a repeated call skips decoding its query string, coercing its
/// variables, writing the upstream body and (on cached routes) identifying the operation again,
/// which together were most of the cost of a cache hit.
///
/// Per worker, so no locks; emptied when the worker takes a new snapshot, and only consulted by
/// requests running under the worker's current one. Only successful translations are kept, one
/// per slot of a fixed table: a new call takes its slot from the one before.
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

    /// Calls kept per worker, one per slot: an app has a few hundred operations and far fewer
    /// variable combinations in a hot set. A power of two, so a hash's top bits pick the slot.
    static let capacity = 1024
    private static let slotBits = capacity.trailingZeroBitCount
    /// Longer targets (large variables) are translated each time rather than held.
    static let maxTargetBytes = 1024

    /// Allocated by the first store, so a worker that never translates a GET holds nothing.
    private var slots: [Entry?] = []
    /// Random per memo: which targets share a slot cannot be worked out from outside, so no
    /// one can aim requests at another caller's slot.
    private let seed: UInt64

    init(seed: UInt64 = .random(in: .min ... .max)) {
        self.seed = seed
    }

    /// Calls held now.
    var count: Int { slots.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    func lookup(route: Int, target: UnsafeRawBufferPointer) -> Call? {
        guard !slots.isEmpty, let entry = slots[slot(route, target)], entry.route == route,
              entry.target.equals(target) else {
            return nil
        }
        return entry.call
    }

    /// Keeps `call`, in place of whatever held its slot.
    func store(route: Int, target: UnsafeRawBufferPointer, _ call: Call) {
        guard target.count <= Self.maxTargetBytes, target.count > 0 else { return }
        if slots.isEmpty { slots = Array(repeating: nil, count: Self.capacity) }
        slots[slot(route, target)] = Entry(route: route, target: Array(target), call: call)
    }

    func removeAll() { slots = [] }

    /// The slot of a route and target. Not `Hasher`: its SipHash of a typical target cost more
    /// than the rest of the lookup. A splitmix64 round per eight bytes (the last word
    /// overlapping the one before) does here, where a collision costs one translation,
    /// never a wrong answer (a lookup compares the whole target).
    func slot(_ route: Int, _ target: UnsafeRawBufferPointer) -> Int {
        let count = target.count
        var hash = SplitMix64.mix(seed ^ UInt64(truncatingIfNeeded: route) ^ UInt64(truncatingIfNeeded: count) << 48)
        if count >= 8 {
            var offset = 0
            while offset < count - 8 {
                hash = SplitMix64.mix(hash ^ target.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            hash = SplitMix64.mix(hash ^ target.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        } else {
            var tail: UInt64 = 0
            for index in 0..<count { tail |= UInt64(target[index]) << UInt64(8 * index) }
            hash = SplitMix64.mix(hash ^ tail)
        }
        return Int(truncatingIfNeeded: hash >> UInt64(UInt64.bitWidth - Self.slotBits))
    }
}
