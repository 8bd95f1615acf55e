/// One cached response as the value of one Redis key, and back. Pure: the clocks come in as
/// arguments, so the lifetime arithmetic is tested on manual clocks.
///
/// Two gateways' monotonic clocks share no origin, so the entry records when it was stored on
/// the wall clock (nanoseconds since the Unix epoch) and its lifetimes as durations. A reader
/// takes the entry's age from its own wall clock and places the entry on its own monotonic clock:
/// `storedAt = now - age`. Replicas kept in step by NTP disagree by milliseconds; a clock that
/// runs behind the writer's sees an age of 0, never a negative one. Redis's own expiry
/// (`PX`, the whole lifetime) drops the key whatever the clocks say.
///
/// Layout (integers big-endian): magic `GHC1`, status (u16), flags (u8, bit 0: public), stored-at
/// wall nanos, max_age, stale_while_revalidate and stale_if_error nanos (u64 each), then route,
/// operation, ETag, stored header lines and body, each a u32 length and its bytes.
enum RedisCacheEntryCodec {
    static let magic: [UInt8] = Array("GHC1".utf8)
    static let publicFlag: UInt8 = 1
    static let nanosPerMilli: UInt64 = 1_000_000

    enum Decoded {
        case entry(CacheEntry)
        /// Well formed, past every window by the reader's clock (Redis has not dropped it yet).
        case expired
        /// Truncated, garbage or of another version: treated as a miss and counted.
        case invalid
    }

    // MARK: - Encoding

    /// `entry`'s value, stored at `wallNow` on the wall clock (`now` on the monotonic one).
    static func encode(_ entry: CacheEntry, now: UInt64, wallNow: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entry.byteCount)
        out.append(contentsOf: magic)
        append(UInt64(CacheStorability.storableStatus), bytes: 2, to: &out)
        out.append(entry.isPublic ? publicFlag : 0)
        append(wallNow &- (now &- entry.storedAt), bytes: 8, to: &out)
        append(entry.maxAgeNanos, bytes: 8, to: &out)
        append(entry.revalidateUntil - entry.freshUntil, bytes: 8, to: &out)
        append(entry.staleIfErrorUntil - entry.freshUntil, bytes: 8, to: &out)
        for field in [Array(entry.routeLabel.utf8)[...], Array(entry.operation.utf8)[...], entry.etag[...],
                      entry.headerBlock, entry.body] {
            append(UInt64(field.count), bytes: 4, to: &out)
            out.append(contentsOf: field)
        }
        return out
    }

    /// `PX` for `SET`: the whole lifetime, max_age plus the longer stale window, in whole
    /// milliseconds rounded up (at least 1, as Redis wants).
    static func expiryMillis(_ entry: CacheEntry) -> Int {
        let lifetime = max(entry.revalidateUntil, entry.staleIfErrorUntil) - entry.storedAt
        return Int(max(1, (lifetime + nanosPerMilli - 1) / nanosPerMilli))
    }

    // MARK: - Decoding

    /// The entry under `key` as this reader sees it at `now` (monotonic) and `wallNow`.
    static func decode(_ value: [UInt8], key: CacheKey, now: UInt64, wallNow: UInt64) -> Decoded {
        var reader = Reader(bytes: value)
        guard reader.take(magic.count).map(Array.init) == magic,
              reader.integer(bytes: 2) == UInt64(CacheStorability.storableStatus),
              let flags = reader.integer(bytes: 1), flags & ~UInt64(publicFlag) == 0,
              let wallStoredAt = reader.integer(bytes: 8), let maxAge = reader.integer(bytes: 8),
              let revalidate = reader.integer(bytes: 8), let staleIfError = reader.integer(bytes: 8),
              let route = reader.text(), let operation = reader.text(), let etag = reader.field(),
              let headerBlock = reader.field(), let body = reader.field(), reader.isAtEnd,
              [maxAge, revalidate, staleIfError].allSatisfy({ $0 <= longestDurationNanos }),
              let lifetime = total(maxAge, max(revalidate, staleIfError))
        else { return .invalid }
        // A reader whose clock runs behind the writer's sees the entry as just stored.
        let age = min(wallNow > wallStoredAt ? wallNow - wallStoredAt : 0, now)
        guard age < lifetime else { return .expired }
        return .entry(CacheEntry(key: key, routeLabel: route, operation: operation, headerBlock: headerBlock, body: body,
                                 isPublic: flags == UInt64(publicFlag), storedAt: now - age, maxAgeNanos: maxAge,
                                 revalidateNanos: revalidate, staleIfErrorNanos: staleIfError, etag: etag))
    }

    /// No route keeps an entry this long (ten years): a longer duration in a stored entry is
    /// garbage (another writer's value, a damaged key), and read as the entry's times it
    /// would overflow them.
    static let longestDurationNanos: UInt64 = 10 * 365 * 86_400 * 1_000_000_000

    /// A sum that does not overflow: a garbage duration must not wrap into a small one.
    private static func total(_ a: UInt64, _ b: UInt64) -> UInt64? {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : sum
    }

    private static func append(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for index in (0..<bytes).reversed() { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    /// Reads fields front to back; every read checks what is left, so a truncated value is nil.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }

        mutating func integer(bytes count: Int) -> UInt64? {
            take(count)?.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }

        mutating func field() -> [UInt8]? {
            guard let length = integer(bytes: 4) else { return nil }
            return take(Int(length)).map(Array.init)
        }

        mutating func text() -> String? {
            field().flatMap { String(validating: $0, as: UTF8.self) }
        }
    }
}
