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

    init(route: CompiledRouteCache?, key: CacheKey, operation: String, role: Role, stale: CacheEntry? = nil) {
        self.route = route
        self.key = key
        self.operation = operation
        self.role = role
        self.stale = stale
    }

    var stores: Bool {
        switch role {
        case .leader, .refresher: return true
        case .follower, .invalidates: return false
        }
    }
}

/// The response being stored: its lifetime and kept headers from the head, its body as it is
/// pumped to the client, bounded by `max_entry_size` (past it, capture stops and nothing is stored).
/// Held in place by its `CacheWork` (a value, not one more object per stored miss).
struct CacheCapture {
    let maxAgeSeconds: Int
    let headerBlock: [UInt8]
    let limit: Int
    private(set) var body: [UInt8] = []
    private(set) var overflowed = false
    /// The response head waits for the body, so its `Cache-Status` can say `stored`
    /// (`Exchange+StoredStatus.swift`).
    var holdsHead = false
    /// Set when the whole body was already judged storable (for `stored`), so it is not judged
    /// twice.
    var bodyAccepted: Bool?

    init(maxAgeSeconds: Int, headerBlock: [UInt8], limit: Int, expectedLength: Int?) {
        self.maxAgeSeconds = maxAgeSeconds
        self.headerBlock = headerBlock
        self.limit = limit
        if let expectedLength {
            if expectedLength > limit { overflowed = true } else { body.reserveCapacity(expectedLength) }
        }
    }

    mutating func append(_ data: UnsafeRawBufferPointer) {
        guard !overflowed else { return }
        if body.count + data.count > limit {
            overflowed = true
            body = []
            return
        }
        body.append(contentsOf: data)
    }
}
