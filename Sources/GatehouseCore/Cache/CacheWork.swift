import GatehouseHTTP

/// What the cache does with one exchange once its phase has decided; held by the exchange only
/// on routes with `cache` (or a mutation to invalidate after), so other routes allocate nothing.
final class CacheWork {
    enum Role {
        /// A miss that leads the fill of `key`: its response is stored and answers the followers.
        case leader
        /// Goes upstream and stores the response, without a fill (server only, a follower whose
        /// leader stored nothing).
        case refresher
        /// Waits for the leader of `key`.
        case follower(CacheFills.Follower)
        /// A mutation: when it succeeds, these operations' entries are dropped.
        case invalidates([String])
    }

    let route: CompiledRouteCache?
    let key: CacheKey
    let operation: String
    var role: Role
    /// The entry found stale, served if the upstream fails within `stale_if_error`.
    var stale: CacheEntry?
    /// The response being kept for storage, once its head said it may be stored.
    var capture: CacheCapture?
    /// A storing fill's invalidation count when it went upstream (`CacheInvalidationCounts`).
    let invalidationMark: UInt64?
    /// An invalidating mutation's answer, read to tell a failed mutation (`MutationOutcome`).
    var mutationAnswer: MutationAnswer?

    init(route: CompiledRouteCache?, key: CacheKey, operation: String, role: Role, stale: CacheEntry? = nil) {
        self.route = route
        self.key = key
        self.operation = operation
        self.role = role
        self.stale = stale
        switch role {
        case .leader, .refresher: invalidationMark = route?.invalidationMark(for: operation)
        case .follower, .invalidates: invalidationMark = nil
        }
    }

    /// The response body on its way to the client: kept for storage, or read for the mutation's outcome.
    @inline(__always)
    func tee(_ data: UnsafeRawBufferPointer) {
        capture?.append(data)
        mutationAnswer?.append(data)
    }

    var stores: Bool {
        switch role {
        case .leader, .refresher: return true
        case .follower, .invalidates: return false
        }
    }
}

/// The response being stored: its lifetime and kept header lines from the head, then its body as
/// it is pumped to the client, bounded by `max_entry_size` (past it, capture stops and nothing is
/// stored). The lines and the body share one allocation, which the entry takes over (`CacheEntry`). Held in place by its `CacheWork` (a value, not one more object per
/// stored miss).
struct CacheCapture {
    let maxAgeSeconds: Int
    let limit: Int
    let headerBlockCount: Int
    /// The header lines, then the body so far.
    private(set) var bytes: [UInt8]
    private(set) var overflowed = false
    /// Set when the whole body was already judged storable (for `stored`), so it is not judged
    /// twice.
    var bodyAccepted: Bool?

    init(maxAgeSeconds: Int, fields: CacheResponseFields, of response: borrowing ResponseHead, limit: Int, expectedLength: Int?) {
        self.maxAgeSeconds = maxAgeSeconds
        self.limit = limit
        let fitsLimit = expectedLength.map { $0 <= limit } ?? true
        bytes = fields.headerBlock(of: response, reservingAfter: fitsLimit ? expectedLength ?? 0 : 0)
        headerBlockCount = bytes.count
        overflowed = !fitsLimit
    }

    /// Nothing once overflowed: the bytes were let go.
    var bodyCount: Int { overflowed ? 0 : bytes.count - headerBlockCount }

    /// The body as captured so far.
    func withBody<Result>(_ read: (UnsafeRawBufferPointer) -> Result) -> Result {
        bytes.withUnsafeBytes { read(UnsafeRawBufferPointer(rebasing: $0[headerBlockCount...])) }
    }

    mutating func append(_ data: UnsafeRawBufferPointer) {
        guard !overflowed else { return }
        if bodyCount + data.count > limit {
            overflowed = true
            bytes = []
            return
        }
        bytes.append(contentsOf: data)
    }

    /// The captured bytes, moved out to their entry.
    mutating func takeEntryBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        return taken
    }
}
