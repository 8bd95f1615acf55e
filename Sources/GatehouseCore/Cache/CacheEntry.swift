import GatehouseHTTP

/// One stored response. Immutable once stored, so workers share it without copying; times are
/// the monotonic clock's nanoseconds (the same on every worker's loop).
final class CacheEntry: Sendable {
    /// What an entry costs beyond its bytes: the object, its key and the LRU's bookkeeping.
    /// Counted so that `max_bytes` bounds the process's memory, not only the bodies.
    static let overheadBytes = 512

    let key: CacheKey
    let routeLabel: String
    let operation: String
    /// "Name: value\r\n" lines of the upstream response kept for hits (Content-Type and the like).
    let headerBlock: [UInt8]
    let body: [UInt8]
    /// A strong validator: the body's digest, quoted.
    let etag: String
    let isPublic: Bool
    let storedAt: UInt64
    let freshUntil: UInt64
    /// The end of the stale-while-revalidate window.
    let revalidateUntil: UInt64
    /// The end of the stale-if-error window.
    let staleIfErrorUntil: UInt64

    init(key: CacheKey, routeLabel: String, operation: String, headerBlock: [UInt8], body: [UInt8], isPublic: Bool,
         storedAt: UInt64, maxAgeNanos: UInt64, revalidateNanos: UInt64, staleIfErrorNanos: UInt64,
         etag: String? = nil) {
        self.key = key
        self.routeLabel = routeLabel
        self.operation = operation
        self.headerBlock = headerBlock
        self.body = body
        // A store that kept the validator (Redis) passes it back rather than hashing the body again.
        self.etag = etag ?? body.withUnsafeBytes { PersistedQueryHash.sha256Hex($0, quote: UInt8(ascii: "\"")) }
        self.isPublic = isPublic
        self.storedAt = storedAt
        freshUntil = storedAt + maxAgeNanos
        revalidateUntil = freshUntil + revalidateNanos
        staleIfErrorUntil = freshUntil + staleIfErrorNanos
    }

    var byteCount: Int { body.count + headerBlock.count + routeLabel.utf8.count + operation.utf8.count + Self.overheadBytes }

    var maxAgeNanos: UInt64 { freshUntil - storedAt }

    /// Past every window: no use to anyone.
    func isDead(at now: UInt64) -> Bool { now >= max(revalidateUntil, staleIfErrorUntil) }

    func isFresh(at now: UInt64) -> Bool { now < freshUntil }

    /// Seconds of freshness left (negative once stale), as `Cache-Status: ttl=` says it.
    func ttlSeconds(at now: UInt64) -> Int {
        let nanos = Int64(bitPattern: freshUntil &- now)
        return Int(nanos / 1_000_000_000)
    }

    func ageSeconds(at now: UInt64) -> Int { Int((now &- storedAt) / 1_000_000_000) }
}

/// The digest of everything that tells one cached answer from another (route, upstream,
/// document, canonical variables, `vary` headers, scope): fixed size whatever the inputs.
struct CacheKey: Hashable, Sendable {
    let digest: String

    init(digest: String) { self.digest = digest }

    /// The digest is uniform already: 16 of its hex digits (64 bits) are plenty for a hash
    /// table, and hashing all 64 showed in profiles (a key is hashed several times per request).
    func hash(into hasher: inout Hasher) {
        let hashed: Void? = digest.utf8.withContiguousStorageIfAvailable { bytes in
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(Self.hashedDigits))))
        }
        if hashed == nil { hasher.combine(digest) }
    }

    static let hashedDigits = 16

    init(parts: [[UInt8]]) {
        var material = CacheKeyMaterial()
        for part in parts { material.append(part) }
        self.init(material)
    }

    init(_ material: CacheKeyMaterial) {
        digest = PersistedQueryHash.sha256Hex(material.bytes)
    }
}

/// The bytes a cache key digests: each part length-prefixed (`<decimal length>:<bytes>`), so no
/// two different part lists can make the same bytes. Built in one buffer, without a String
/// or an array per part: this runs on every cacheable request.
struct CacheKeyMaterial {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(Self.typicalBytes) }

    mutating func append<Part: Collection<UInt8>>(_ part: Part) {
        appendLength(part.count)
        bytes.append(contentsOf: part)
    }

    /// A part that is text (route, upstream, document digest), copied in one piece.
    mutating func append(text part: String) {
        appendLength(part.utf8.count)
        bytes.append(utf8: part)
    }

    /// One part made of pieces joined by NUL (a scope: kind, provider, subject).
    mutating func append(joining pieces: String...) {
        var count = pieces.count - 1
        for piece in pieces { count += piece.utf8.count }
        appendLength(count)
        for (index, piece) in pieces.enumerated() {
            if index > 0 { bytes.append(0) }
            bytes.append(utf8: piece)
        }
    }

    private mutating func appendLength(_ count: Int) {
        var divisor = 1
        while divisor <= count / 10 { divisor *= 10 }
        var rest = count
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
        bytes.append(UInt8(ascii: ":"))
    }

    /// Route, upstream, a 64-digit document digest, short variables and a scope.
    private static let typicalBytes = 256
}
