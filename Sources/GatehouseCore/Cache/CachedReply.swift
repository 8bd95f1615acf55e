import GatehouseIO

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

    /// The `Cache-Status` value, written in place (every hit writes one).
    func writeCacheStatus(into output: inout ByteBuffer, now: UInt64) {
        switch kind {
        case .hit, .staleWhileRevalidate:
            output.append("gatehouse; hit; ttl=")
            // Negative once stale (`ttl=-12`); the decimal writer takes no sign.
            let ttl = entry.ttlSeconds(at: now)
            if ttl < 0 { output.append("-") }
            output.append(decimal: Int(ttl.magnitude))
        case .collapsed:
            output.append("gatehouse; fwd=miss; collapsed")
        case .staleOnError(let status):
            output.append("gatehouse; fwd=stale; fwd-status=")
            output.append(decimal: status)
        }
    }
}
