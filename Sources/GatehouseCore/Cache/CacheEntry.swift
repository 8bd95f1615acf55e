import GatehouseHTTP
import Synchronization

/// One stored response. Immutable once stored, so workers share it without copying; times are
/// the monotonic clock's nanoseconds (the same on every worker's loop). The one thing made later
/// is the ETag, by the first hit that writes it (`withETag`): a miss stores without hashing.
final class CacheEntry: Sendable {
    /// What an entry costs beyond its bytes: the object, its key and the LRU's bookkeeping.
    /// Counted so that `max_bytes` bounds the process's memory, not only the bodies.
    static let overheadBytes = 512

    let key: CacheKey
    let routeLabel: String
    let operation: String
    /// What a hit writes, in one allocation: the upstream's kept header lines ("Name: value\r\n",
    /// Content-Type and the like), then the body.
    private let bytes: [UInt8]
    private let headerBlockCount: Int
    let isPublic: Bool
    let storedAt: UInt64
    let freshUntil: UInt64
    /// The end of the stale-while-revalidate window.
    let revalidateUntil: UInt64
    /// The end of the stale-if-error window.
    let staleIfErrorUntil: UInt64
    /// What the entry counts against `max_bytes` (the ETag's bytes included, made or not); the
    /// LRU reads it several times per store.
    let byteCount: Int
    /// The address of the ETag's `etagLength` bytes once made (0 before): set once, then only
    /// read (`withETag`). An address as an integer, as pointers are not `Sendable`.
    private let madeETag: Atomic<UInt>

    /// The length of the ETag the gateway makes: a SHA-256 in hex, quoted.
    static let etagLength = 2 * SHA256Digest.length + 2

    /// An entry from its parts. A store that kept the validator (Redis) passes it back rather
    /// than hashing the body again.
    convenience init(key: CacheKey, routeLabel: String, operation: String, headerBlock: [UInt8], body: [UInt8],
                     isPublic: Bool, storedAt: UInt64, maxAgeNanos: UInt64, revalidateNanos: UInt64,
                     staleIfErrorNanos: UInt64, etag: [UInt8]? = nil) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerBlock.count + body.count)
        bytes.append(contentsOf: headerBlock)
        bytes.append(contentsOf: body)
        self.init(key: key, routeLabel: routeLabel, operation: operation, bytes: bytes, headerBlockCount: headerBlock.count,
                  isPublic: isPublic, storedAt: storedAt, maxAgeNanos: maxAgeNanos, revalidateNanos: revalidateNanos,
                  staleIfErrorNanos: staleIfErrorNanos)
        if let etag, etag.count == Self.etagLength {
            etag.withUnsafeBytes { _ = publish(copying: $0) }
        }
    }

    /// An entry over `bytes` as a capture leaves them (`CacheCapture.takeEntryBytes()`): the
    /// header lines (`headerBlockCount` bytes), then the body.
    init(key: CacheKey, routeLabel: String, operation: String, bytes: [UInt8], headerBlockCount: Int,
         isPublic: Bool, storedAt: UInt64, maxAgeNanos: UInt64, revalidateNanos: UInt64, staleIfErrorNanos: UInt64) {
        self.key = key
        self.routeLabel = routeLabel
        self.operation = operation
        self.bytes = bytes
        self.headerBlockCount = headerBlockCount
        self.isPublic = isPublic
        self.storedAt = storedAt
        // Saturating: a lifetime past the end of the clock is "until then", never a wrap to the past.
        freshUntil = Self.adding(storedAt, maxAgeNanos)
        revalidateUntil = Self.adding(freshUntil, revalidateNanos)
        staleIfErrorUntil = Self.adding(freshUntil, staleIfErrorNanos)
        byteCount = bytes.count + Self.etagLength + routeLabel.utf8.count + operation.utf8.count + Self.overheadBytes
        madeETag = Atomic(0)
    }

    deinit {
        UnsafeMutableRawPointer(bitPattern: madeETag.load(ordering: .acquiring))?.deallocate()
    }

    private static func adding(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    var headerBlock: ArraySlice<UInt8> { bytes[..<headerBlockCount] }
    var body: ArraySlice<UInt8> { bytes[headerBlockCount...] }

    /// A strong validator: the body's digest in hex, quoted, as the `ETag` field writes it.
    var etag: [UInt8] { withETag { Array($0) } }

    /// The header lines, the body and the ETag in place, for writing a hit with one access to
    /// the bytes rather than a slice (and a retain) per part.
    func withParts<Result>(_ use: (_ headerBlock: UnsafeRawBufferPointer, _ body: UnsafeRawBufferPointer,
                                   _ etag: UnsafeRawBufferPointer) -> Result) -> Result {
        let etag = etagBytes()
        return bytes.withUnsafeBytes { all in
            use(UnsafeRawBufferPointer(rebasing: all[..<headerBlockCount]),
                UnsafeRawBufferPointer(rebasing: all[headerBlockCount...]), etag)
        }
    }

    /// The ETag in place (made now if no reader made it yet).
    func withETag<Result>(_ use: (UnsafeRawBufferPointer) -> Result) -> Result {
        use(etagBytes())
    }

    /// The made ETag, or one made now. Readers on several workers may make it at once: the
    /// first to publish wins and the others drop theirs, so every reader sees the same bytes.
    private func etagBytes() -> UnsafeRawBufferPointer {
        if let made = UnsafeRawPointer(bitPattern: madeETag.load(ordering: .acquiring)) {
            return UnsafeRawBufferPointer(start: made, count: Self.etagLength)
        }
        return withUnsafeTemporaryAllocation(byteCount: Self.etagLength, alignment: 1) { scratch in
            bytes.withUnsafeBytes { all in
                Self.writeETag(of: UnsafeRawBufferPointer(rebasing: all[headerBlockCount...]), to: scratch)
            }
            return publish(copying: UnsafeRawBufferPointer(scratch))
        }
    }

    /// Publishes a copy of `etag` unless one was published first; returns the published bytes.
    private func publish(copying etag: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let copy = UnsafeMutableRawPointer.allocate(byteCount: Self.etagLength, alignment: 1)
        copy.copyMemory(from: etag.baseAddress!, byteCount: Self.etagLength)
        let (exchanged, published) = madeETag.compareExchange(expected: 0, desired: UInt(bitPattern: copy),
                                                              ordering: .acquiringAndReleasing)
        if exchanged { return UnsafeRawBufferPointer(start: copy, count: Self.etagLength) }
        copy.deallocate()
        return UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: published), count: Self.etagLength)
    }

    /// `"<hex of the body's SHA-256>"` into `output` (`etagLength` bytes).
    private static func writeETag(of body: UnsafeRawBufferPointer, to output: UnsafeMutableRawBufferPointer) {
        let quoted = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA256Digest.length) { digest in
            _ = SHA256Digest.digest(body, into: digest.baseAddress!)
            quoted[0] = UInt8(ascii: "\"")
            LowercaseHex.write(UnsafeRawBufferPointer(digest), to: quoted + 1)
            quoted[etagLength - 1] = UInt8(ascii: "\"")
        }
    }

    var maxAgeNanos: UInt64 { freshUntil - storedAt }

    /// Past every window: no use to anyone.
    func isDead(at now: UInt64) -> Bool { now >= max(revalidateUntil, staleIfErrorUntil) }

    func isFresh(at now: UInt64) -> Bool { now < freshUntil }

    /// Seconds of freshness left (negative once stale), as `Cache-Status: ttl=` says it: rounded
    /// down, so an entry stale by half a second says -1, not a fresh-looking 0.
    func ttlSeconds(at now: UInt64) -> Int {
        let nanos = Int64(bitPattern: freshUntil &- now)
        let (seconds, rest) = nanos.quotientAndRemainder(dividingBy: 1_000_000_000)
        return Int(rest < 0 ? seconds - 1 : seconds)
    }

    func ageSeconds(at now: UInt64) -> Int { Int((now &- storedAt) / 1_000_000_000) }
}

/// The digest of everything that tells one cached answer from another (route, upstream,
/// document, canonical variables, `vary` headers, scope): fixed size whatever the inputs.
struct CacheKey: Hashable, Sendable {
    /// The SHA-256 of the key material as four words, in the digest's byte order: a key is
    /// compared and hashed several times per request (store, fills), so no bytes or String.
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// Stands in on a mutation's cache work, which stores and looks up nothing.
    static let placeholder = CacheKey(words: (0, 0, 0, 0))

    private init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }

    init(parts: [[UInt8]]) {
        var material = CacheKeyMaterial()
        for part in parts { material.append(part) }
        self.init(material)
    }

    init(_ material: CacheKeyMaterial) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { digest in
            material.digest.finish(into: digest.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        self.words = words
    }

    static func == (a: CacheKey, b: CacheKey) -> Bool { a.words == b.words }

    /// The digest is uniform already: one of its words is plenty for a hash table.
    func hash(into hasher: inout Hasher) { hasher.combine(words.0) }

    /// What a dictionary asks instead of `hash(into:)`: that word mixed with the dictionary's
    /// random seed, without running SipHash over a value that is a SHA-256 already (a lookup
    /// and a store per miss each paid for one). The seed keeps the slots unpredictable from
    /// outside, as `Hasher` would.
    func _rawHashValue(seed: Int) -> Int {
        Int(truncatingIfNeeded: SplitMix64.mix(words.0 ^ UInt64(UInt(bitPattern: seed))))
    }

    /// The digest's 64 lowercase hex digits: the key's name in a Redis store.
    var hexDigits: [UInt8] {
        withUnsafeBytes(of: words) { LowercaseHex.bytes($0) }
    }
}

/// What a cache key digests: each part length-prefixed (`<decimal length>:<bytes>`), so no two
/// different part lists make the same bytes. Fed straight into the digest, without a buffer:
/// this runs on every cacheable request (and a route's first parts are fed once, at compile time).
struct CacheKeyMaterial: Sendable {
    fileprivate private(set) var digest = SHA256Context()

    init() {}

    mutating func append<Part: Collection<UInt8>>(_ part: Part) {
        appendLength(part.count)
        if part.withContiguousStorageIfAvailable({ digest.update(UnsafeRawBufferPointer($0)) }) == nil {
            Array(part).withUnsafeBytes { digest.update($0) }
        }
    }

    /// A part that is text (route, upstream, document digest).
    mutating func append(text part: String) {
        var part = part
        appendLength(part.utf8.count)
        part.withUTF8 { digest.update(UnsafeRawBufferPointer($0)) }
    }

    /// One part made of pieces joined by NUL (a scope: kind, provider, subject).
    mutating func append(joining pieces: String...) {
        var count = pieces.count - 1
        for piece in pieces { count += piece.utf8.count }
        appendLength(count)
        for (index, piece) in pieces.enumerated() {
            if index > 0 { withUnsafeBytes(of: UInt8(0)) { digest.update($0) } }
            var piece = piece
            piece.withUTF8 { digest.update(UnsafeRawBufferPointer($0)) }
        }
    }

    /// `<decimal length>:`, written on the stack (`DecimalDigits`) and fed in one piece.
    private mutating func appendLength(_ count: Int) {
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: the longest length and the colon
        withUnsafeMutableBytes(of: &scratch) { buffer in
            buffer[buffer.count - 1] = UInt8(ascii: ":")
            let first = DecimalDigits.write(UInt(count), endingAt: buffer.count - 1, in: buffer)
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[first...]))
        }
    }
}
