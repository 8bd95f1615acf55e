import GatehouseConfig
import GatehouseGraphQL
import GatehouseHTTP

/// Whether an upstream response may be stored, and for how long (README, "Response cache"):
/// status 200, no `Set-Cookie`, no `Cache-Control: no-store` (nor `private` on a public
/// scope); an upstream `s-maxage` (else `max-age`) shorter than the route's `max_age` wins.
/// The body is judged once it is whole: within `max_entry_size`, JSON without top-level `errors`.
enum CacheStorability {
    /// What the response head says.
    struct Head: Equatable {
        var status: Int
        var setsCookie: Bool
        var cacheControl: ArraySlice<UInt8>?
    }

    enum Verdict: Equatable {
        /// Store with this fresh lifetime (seconds).
        case store(maxAgeSeconds: Int)
        case skip
    }

    static let storableStatus = 200

    static func judge(_ head: Head, scope: RouteCacheConfig.Scope, maxAgeSeconds: Int) -> Verdict {
        guard head.status == storableStatus, !head.setsCookie else { return .skip }
        var lifetime = maxAgeSeconds
        if let value = head.cacheControl {
            let directives = CacheControlDirectives(value)
            if directives.contains("no-store") { return .skip }
            if scope == .public && directives.contains("private") { return .skip }
            if let upstream = directives.seconds("s-maxage") ?? directives.seconds("max-age") {
                lifetime = min(lifetime, upstream)
            }
        }
        return lifetime > 0 ? .store(maxAgeSeconds: lifetime) : .skip
    }

    /// The judgement of an upstream response head on `cache`'s route, from its fields as the
    /// cache read them.
    static func judge(_ response: borrowing ResponseHead, _ fields: CacheResponseFields, for cache: CompiledRouteCache) -> Verdict {
        let head = Head(status: response.status, setsCookie: fields.setsCookie,
                        cacheControl: fields.cacheControlValue(of: response))
        return judge(head, scope: cache.scope, maxAgeSeconds: cache.maxAgeSeconds)
    }

    /// A whole body: JSON whose top level is an object without `errors`, within the size.
    static func acceptsBody(_ body: [UInt8], maxEntrySize: Int) -> Bool {
        body.withUnsafeBytes { acceptsBody($0, maxEntrySize: maxEntrySize) }
    }

    static func acceptsBody(_ body: UnsafeRawBufferPointer, maxEntrySize: Int) -> Bool {
        guard body.count <= maxEntrySize else { return false }
        // Checked without building the document: this runs on every storable miss.
        return JSONReader.objectHasTopLevelKey(body, errorsKey) == false
    }

    private static let errorsKey = Array("errors".utf8)
}
