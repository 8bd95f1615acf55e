import Testing
@testable import GatehouseCore

/// The LRU within its byte budget and the entry windows, on a manual clock (nanoseconds).
struct CacheLRUTests {
    static let second: UInt64 = 1_000_000_000

    static func entry(_ name: String, size: Int = 100, at storedAt: UInt64 = 0, maxAge: UInt64 = 30,
                      revalidate: UInt64 = 0, staleIfError: UInt64 = 0, operation: String = "Op",
                      route: String = "/r") -> CacheEntry {
        CacheEntry(key: CacheKey.named(name), routeLabel: route, operation: operation, headerBlock: [],
                   body: [UInt8](repeating: 0x61, count: size), isPublic: true, storedAt: storedAt,
                   maxAgeNanos: maxAge * second, revalidateNanos: revalidate * second,
                   staleIfErrorNanos: staleIfError * second)
    }

    @Test func evictsLeastRecentlyUsedFirst() {
        let one = Self.entry("a")
        var lru = CacheLRU(maxBytes: one.byteCount * 3)
        lru.put(one)
        lru.put(Self.entry("b"))
        lru.put(Self.entry("c"))
        #expect(lru.get(CacheKey.named("a"), now: 0) != nil)  // a is now the most recent
        lru.put(Self.entry("d"))
        #expect(lru.keysByRecency == ["d", "a", "c"].map(CacheKey.named))
        #expect(lru.evictions == 1)
        #expect(lru.bytes <= lru.maxBytes)
    }

    @Test func replacingAKeyKeepsOneEntry() {
        var lru = CacheLRU(maxBytes: 1 << 20)
        lru.put(Self.entry("a", size: 10))
        lru.put(Self.entry("a", size: 20))
        #expect(lru.count == 1)
        #expect(lru.bytes == Self.entry("a", size: 20).byteCount)
    }

    @Test func aReplacedEntryBecomesTheMostRecent() {
        let one = Self.entry("a")
        var lru = CacheLRU(maxBytes: one.byteCount * 3)
        for name in ["a", "b", "c", "a"] { lru.put(Self.entry(name)) }
        #expect(lru.keysByRecency == ["a", "c", "b"].map(CacheKey.named))
        lru.put(Self.entry("d"))
        #expect(lru.keysByRecency == ["d", "a", "c"].map(CacheKey.named))
        #expect(lru.bytes == one.byteCount * 3)
    }

    @Test func aReplacementLargerThanTheBudgetDropsTheOldEntry() {
        var lru = CacheLRU(maxBytes: 1000)
        lru.put(Self.entry("a", size: 10))
        lru.put(Self.entry("a", size: 2000))
        #expect(lru.count == 0 && lru.bytes == 0)
        #expect(lru.get(CacheKey.named("a"), now: 0) == nil)
    }

    @Test func entryLargerThanTheBudgetIsNotStored() {
        var lru = CacheLRU(maxBytes: 1000)
        lru.put(Self.entry("big", size: 2000))
        #expect(lru.count == 0 && lru.bytes == 0)
    }

    @Test func manyKeysStayWithinTheBudget() {
        var lru = CacheLRU(maxBytes: 64 * 1024)
        for i in 0..<10_000 { lru.put(Self.entry("k\(i)", size: 200)) }
        #expect(lru.bytes <= 64 * 1024)
        #expect(lru.count == 64 * 1024 / Self.entry("k", size: 200).byteCount)
        #expect(lru.evictions == 10_000 - lru.count)
    }

    @Test func purgeByRouteAndOperation() {
        var lru = CacheLRU(maxBytes: 1 << 20)
        lru.put(Self.entry("a", operation: "List", route: "/ops/*"))
        lru.put(Self.entry("b", operation: "Get", route: "/ops/*"))
        lru.put(Self.entry("c", operation: "List", route: "/other"))
        #expect(lru.purge(.operations(["List"])) == 2)
        #expect(lru.purge(.route("/ops/*")) == 1)
        #expect(lru.count == 0)
    }

    @Test func deadEntriesAreDroppedOnLookup() {
        var lru = CacheLRU(maxBytes: 1 << 20)
        lru.put(Self.entry("a", maxAge: 10, revalidate: 5, staleIfError: 20))
        #expect(lru.get(CacheKey.named("a"), now: 29 * Self.second) != nil)
        #expect(lru.get(CacheKey.named("a"), now: 30 * Self.second) == nil)
        #expect(lru.count == 0)
    }

    /// max_age 10 s, stale_while_revalidate 5 s, stale_if_error 20 s, stored at t=100 s.
    @Test(arguments: [
        (105, true, true, true, 5),
        (110, false, true, true, 0),
        (114, false, true, true, -4),
        (115, false, false, true, -5),
        (129, false, false, true, -19),
        (130, false, false, false, -20),
    ] as [(UInt64, Bool, Bool, Bool, Int)])
    func windows(_ at: UInt64, _ fresh: Bool, _ revalidate: Bool, _ staleIfError: Bool, _ ttl: Int) {
        let entry = Self.entry("w", at: 100 * Self.second, maxAge: 10, revalidate: 5, staleIfError: 20)
        let now = at * Self.second
        #expect(entry.isFresh(at: now) == fresh)
        #expect((now < entry.revalidateUntil) == revalidate)
        #expect((now < entry.staleIfErrorUntil) == staleIfError)
        #expect(entry.ttlSeconds(at: now) == ttl)
        #expect(entry.ageSeconds(at: now) == Int(at - 100))
    }

    /// Between whole seconds the count rounds down: half a second fresh is 0, half a second stale -1.
    @Test(arguments: [
        (109_500_000_000, 0),
        (110_000_000_000, 0),
        (110_000_000_001, -1),
        (110_500_000_000, -1),
        (111_000_000_000, -1),
        (111_000_000_001, -2),
    ] as [(UInt64, Int)])
    func ttlRoundsDown(_ now: UInt64, _ ttl: Int) {
        let entry = Self.entry("t", at: 100 * Self.second, maxAge: 10, revalidate: 5, staleIfError: 20)
        #expect(entry.ttlSeconds(at: now) == ttl)
    }

    @Test func purgeFilterFromAdminBodies() throws {
        #expect(try CachePurgeRequest.filter(Array("{}".utf8)).get() == .all)
        #expect(try CachePurgeRequest.filter([]).get() == .all)
        #expect(try CachePurgeRequest.filter(Array(#"{"route":"/ops/*"}"#.utf8)).get() == .route("/ops/*"))
        #expect(try CachePurgeRequest.filter(Array(#"{"operation":"List"}"#.utf8)).get() == .operations(["List"]))
        #expect((try? CachePurgeRequest.filter(Array(#"{"route":1}"#.utf8)).get()) == nil)
        #expect((try? CachePurgeRequest.filter(Array("[]".utf8)).get()) == nil)
    }
}
