/// A response the cache answers with instead of the upstream, and how it came to be (its
/// `Cache-Status`, RFC 9211).
struct CachedReply {
    enum Kind: Equatable {
        /// A fresh entry.
        case hit
        /// A stale entry within `stale_while_revalidate` (a refresh runs).
        case staleWhileRevalidate
        /// The answer a leading miss stored.
        case collapsed
        /// A stale entry within `stale_if_error`, instead of the upstream's failure.
        case staleOnError(status: Int)
    }

    let entry: CacheEntry
    let kind: Kind

    func cacheStatus(now: UInt64) -> String {
        switch kind {
        case .hit, .staleWhileRevalidate: "gatehouse; hit; ttl=\(entry.ttlSeconds(at: now))"
        case .collapsed: "gatehouse; fwd=miss; collapsed"
        case .staleOnError(let status): "gatehouse; fwd=stale; fwd-status=\(status)"
        }
    }
}
