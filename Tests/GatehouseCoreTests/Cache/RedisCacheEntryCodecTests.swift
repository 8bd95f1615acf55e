import GatehouseConfig
import Testing
@testable import GatehouseCore

/// A cached response as a Redis value and back, on manual clocks: the writer's and the reader's
/// monotonic clocks share no origin, their wall clocks agree (or nearly).
struct RedisCacheEntryCodecTests {
    static let second: UInt64 = 1_000_000_000
    /// The writer's monotonic clock when it stored, and the wall clock then (2026-12-01).
    static let writerNow: UInt64 = 5_000 * second
    static let wallAtStore: UInt64 = 1_796_083_200 * second
    /// Another process: its monotonic clock started elsewhere.
    static let readerNow: UInt64 = 90_000 * second

    static func entry(maxAge: UInt64 = 30, revalidate: UInt64 = 60, staleIfError: UInt64 = 600,
                      isPublic: Bool = false) -> CacheEntry {
        CacheEntry(key: CacheKey.named("d1"), routeLabel: "/ops/*", operation: "listMovies",
                   headerBlock: Array("Content-Type: application/json\r\n".utf8), body: Array("{\"data\":{}}".utf8),
                   isPublic: isPublic, storedAt: writerNow, maxAgeNanos: maxAge * second,
                   revalidateNanos: revalidate * second, staleIfErrorNanos: staleIfError * second)
    }

    /// Decoded by the other process `elapsed` seconds (wall clock) after the store.
    static func read(_ value: [UInt8], after elapsed: UInt64) -> RedisCacheEntryCodec.Decoded {
        RedisCacheEntryCodec.decode(value, key: CacheKey.named("d1"), now: readerNow,
                                    wallNow: wallAtStore + elapsed * second)
    }

    static func encoded(_ entry: CacheEntry = entry()) -> [UInt8] {
        RedisCacheEntryCodec.encode(entry, now: writerNow, wallNow: wallAtStore)
    }

    static func entry(of decoded: RedisCacheEntryCodec.Decoded) -> CacheEntry? {
        if case .entry(let entry) = decoded { return entry }
        return nil
    }

    static func isExpired(_ decoded: RedisCacheEntryCodec.Decoded) -> Bool {
        if case .expired = decoded { return true }
        return false
    }

    static func isInvalid(_ decoded: RedisCacheEntryCodec.Decoded) -> Bool {
        if case .invalid = decoded { return true }
        return false
    }

    @Test func roundTripKeepsEveryField() throws {
        let original = Self.entry(isPublic: true)
        let decoded = try #require(Self.entry(of: Self.read(Self.encoded(original), after: 0)))
        #expect(decoded.routeLabel == original.routeLabel && decoded.operation == original.operation)
        #expect(decoded.headerBlock == original.headerBlock && decoded.body == original.body)
        #expect(decoded.etag == original.etag && decoded.isPublic)
        #expect(decoded.key == original.key)
        #expect(decoded.maxAgeNanos == original.maxAgeNanos)
        #expect(decoded.revalidateUntil - decoded.freshUntil == 60 * Self.second)
        #expect(decoded.staleIfErrorUntil - decoded.freshUntil == 600 * Self.second)
    }

    /// Rows: wall-clock seconds since the store when the other process reads, and what it sees
    /// (max_age 30 s, stale_while_revalidate 60 s, stale_if_error 600 s).
    static let ages: [(elapsed: UInt64, fresh: Bool, revalidates: Bool, ttl: Int?)] = [
        (0, true, false, 30),
        (12, true, false, 18),
        (45, false, true, -15),     // stale, within stale_while_revalidate
        (200, false, false, -170),  // stale, only within stale_if_error
        (630, false, false, nil),   // past every window: a miss
    ]

    @Test(arguments: ages)
    func ageComesFromTheWallClockAndLandsOnTheReadersClock(_ row: (elapsed: UInt64, fresh: Bool, revalidates: Bool, ttl: Int?)) throws {
        let decoded = Self.read(Self.encoded(), after: row.elapsed)
        guard let ttl = row.ttl else {
            #expect(Self.isExpired(decoded))
            return
        }
        let entry = try #require(Self.entry(of: decoded))
        #expect(entry.storedAt == Self.readerNow - row.elapsed * Self.second)
        #expect(entry.isFresh(at: Self.readerNow) == row.fresh)
        #expect((Self.readerNow < entry.revalidateUntil && !row.fresh) == row.revalidates)
        #expect(entry.ttlSeconds(at: Self.readerNow) == ttl)
        #expect(entry.ageSeconds(at: Self.readerNow) == Int(row.elapsed))
    }

    @Test func aReaderWhoseClockRunsBehindSeesAnAgeOfZero() throws {
        let value = Self.encoded()
        let decoded = RedisCacheEntryCodec.decode(value, key: CacheKey.named("d1"), now: Self.readerNow,
                                                  wallNow: Self.wallAtStore - 2 * Self.second)
        let entry = try #require(Self.entry(of: decoded))
        #expect(entry.ageSeconds(at: Self.readerNow) == 0 && entry.ttlSeconds(at: Self.readerNow) == 30)
    }

    @Test func expiryIsMaxAgePlusTheLongerStaleWindowInMilliseconds() {
        #expect(RedisCacheEntryCodec.expiryMillis(Self.entry()) == 630_000)
        #expect(RedisCacheEntryCodec.expiryMillis(Self.entry(revalidate: 90, staleIfError: 0)) == 120_000)
        #expect(RedisCacheEntryCodec.expiryMillis(Self.entry(revalidate: 0, staleIfError: 0)) == 30_000)
    }

    /// Every truncation of a good value, a value of another version and garbage are refused.
    @Test func truncatedOrGarbageValuesAreInvalid() {
        let value = Self.encoded()
        for length in 0..<value.count {
            #expect(Self.isInvalid(Self.read(Array(value.prefix(length)), after: 0)), "cut to \(length) bytes")
        }
        var otherVersion = value
        otherVersion[3] = UInt8(ascii: "9")
        var trailing = value
        trailing.append(0)
        var hugeLength = value
        // The route's length field (after magic, status, flags and four durations) claims 4 GiB.
        let routeLength = 4 + 2 + 1 + 4 * 8
        hugeLength.replaceSubrange(routeLength..<(routeLength + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
        for bad in [otherVersion, trailing, hugeLength, Array("{\"data\":{}}".utf8), [UInt8](repeating: 0xFF, count: 64)] {
            #expect(Self.isInvalid(Self.read(bad, after: 0)))
        }
    }

    /// A duration no route keeps (a damaged key, another writer's value) would overflow the
    /// entry's times: such a value is unreadable, never a crash.
    @Test func aDurationPastTenYearsIsInvalid() {
        let maxAgeField = 4 + 2 + 1 + 8
        for field in 0..<3 {
            var value = Self.encoded()
            let start = maxAgeField + 8 * field
            value.replaceSubrange(start..<(start + 8), with: [UInt8](repeating: 0xFF, count: 8))
            #expect(Self.isInvalid(Self.read(value, after: 0)), "duration \(field)")
        }
    }

    @Test func anInvalidValueIsAMissAndCountedAsAGetErrorWithoutTouchingHealth() {
        let metrics = StoreMetrics()
        let store = RedisResponseCacheStore(store: StoreConfig(name: "shared", url: RedisURL(host: "127.0.0.1")),
                                            metrics: metrics)
        let key = CacheKey.named("d1")
        #expect(store.entry(from: nil, key: key, now: Self.readerNow, wallNow: Self.wallAtStore) == nil)
        #expect(store.entry(from: Self.encoded(), key: key, now: Self.readerNow, wallNow: Self.wallAtStore) != nil)
        #expect(store.entry(from: Array("garbage".utf8), key: key, now: Self.readerNow, wallNow: Self.wallAtStore) == nil)
        #expect(store.series.errors.load(StoreMetrics.Operation.get.rawValue) == 1)
        #expect(store.series.lastError == RedisResponseCacheStore.undecodableReason)
        #expect(store.series.isUp)
        #expect(store.statistics == nil, "entries in Redis are not counted by one replica")
    }

    @Test func keysSitUnderThePrefixAndTheCacheNamespace() {
        let keys = RedisCacheKeys(storePrefix: "gh:")
        let entry = Self.entry()
        let store = keys.storeCommand(entry, value: [1, 2]).map { String(decoding: $0, as: UTF8.self) }
        let digest = String(decoding: entry.key.hexDigits, as: UTF8.self)
        #expect(digest.utf8.count == 64)
        #expect(store[0] == "EVAL" && store[2] == "4")
        #expect(Array(store[3...]) == ["gh:rc:e:\(digest)", "gh:rc:r:/ops/*", "gh:rc:o:listMovies", "gh:rc:sets",
                                       "\u{1}\u{2}", "630000", digest])
        let text = { (filter: CachePurgeFilter) in
            Array(keys.purgeCommand(filter).dropFirst(2).map { String(decoding: $0, as: UTF8.self) })
        }
        #expect(text(.all) == ["1", "gh:rc:sets", "gh:rc:e:"])
        #expect(text(.route("/ops/*")) == ["2", "gh:rc:sets", "gh:rc:r:/ops/*", "gh:rc:e:"])
        #expect(text(.operations(["a", "b"])) == ["3", "gh:rc:sets", "gh:rc:o:a", "gh:rc:o:b", "gh:rc:e:"])
    }
}
