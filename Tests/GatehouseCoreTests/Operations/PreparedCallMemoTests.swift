import Testing
@testable import GatehouseCore

/// The per-worker memo of translated GET calls: a hit must be the same route and the very same
/// target, and the table must spread real targets over its slots.
struct PreparedCallMemoTests {
    private static func call(_ name: String) -> PreparedCallMemo.Call {
        PreparedCallMemo.Call(rewrite: UpstreamRewrite(target: Array(name.utf8)), operation: nil)
    }

    private static func store(_ memo: PreparedCallMemo, route: Int = 0, _ target: String, _ name: String) {
        Array(target.utf8).withUnsafeBytes { memo.store(route: route, target: $0, call(name)) }
    }

    private static func lookup(_ memo: PreparedCallMemo, route: Int = 0, _ target: String) -> String? {
        Array(target.utf8).withUnsafeBytes { memo.lookup(route: route, target: $0) }
            .map { String(decoding: $0.rewrite.target ?? [], as: UTF8.self) }
    }

    @Test func findsOnlyTheSameRouteAndTarget() {
        let memo = PreparedCallMemo(seed: 7)
        Self.store(memo, route: 2, "/ops/listMovies?genre=drama&limit=5", "a")
        #expect(Self.lookup(memo, route: 2, "/ops/listMovies?genre=drama&limit=5") == "a")
        #expect(Self.lookup(memo, route: 3, "/ops/listMovies?genre=drama&limit=5") == nil)
        #expect(Self.lookup(memo, route: 2, "/ops/listMovies?genre=drama&limit=6") == nil)
        #expect(Self.lookup(memo, route: 2, "/ops/listMovies?genre=drama&limit=55") == nil)
        #expect(Self.lookup(memo, route: 2, "/ops/listMovies?genre=drama&limit=") == nil)
    }

    /// Every length from one byte to a few words, the short ones without a whole word.
    @Test func keepsTargetsOfEveryLength() {
        let memo = PreparedCallMemo(seed: 99)
        for length in 1...40 {
            let target = String(repeating: "q", count: length)
            Self.store(memo, target, "\(length)")
            #expect(Self.lookup(memo, target) == "\(length)")
            #expect(Self.lookup(memo, target + "q") != "\(length)")
        }
    }

    @Test func holdsNothingEmptyOrTooLong() {
        let memo = PreparedCallMemo(seed: 1)
        #expect(Self.lookup(memo, "/ops/x") == nil)  // nothing stored: nothing allocated either
        Self.store(memo, "", "empty")
        Self.store(memo, "/" + String(repeating: "v", count: PreparedCallMemo.maxTargetBytes), "long")
        #expect(memo.count == 0)
        Self.store(memo, "/ops/x", "x")
        #expect(memo.count == 1)
        memo.removeAll()
        #expect(memo.count == 0)
        #expect(Self.lookup(memo, "/ops/x") == nil)
    }

    /// Two targets in one slot: the later call takes it, and the earlier is translated again.
    @Test func aLaterCallTakesItsSlot() throws {
        let memo = PreparedCallMemo(seed: 12_345)
        var bySlot: [Int: String] = [:]
        var pair: (String, String)?
        for id in 0..<5_000 where pair == nil {
            let target = "/ops/movie?id=\(id)"
            let slot = Array(target.utf8).withUnsafeBytes { memo.slot(0, $0) }
            if let earlier = bySlot[slot] { pair = (earlier, target) } else { bySlot[slot] = target }
        }
        let (earlier, later) = try #require(pair)
        Self.store(memo, earlier, "earlier")
        Self.store(memo, later, "later")
        #expect(Self.lookup(memo, earlier) == nil)
        #expect(Self.lookup(memo, later) == "later")
    }

    /// Targets that differ in a digit or two spread as random ones would: 1,024 of them into
    /// 1,024 slots fill about 63% (1 - 1/e); a weak mix would pile them up.
    @Test(arguments: [0, 0xDEAD_BEEF, UInt64.max])
    func spreadsSimilarTargets(seed: UInt64) {
        let memo = PreparedCallMemo(seed: seed)
        var used = Set<Int>()
        for id in 0..<PreparedCallMemo.capacity {
            let target = "/ops/listMoviesByGenre?genre=drama&limit=\(id)"
            used.insert(Array(target.utf8).withUnsafeBytes { memo.slot(id % 3, $0) })
        }
        #expect(used.count > PreparedCallMemo.capacity * 58 / 100)
    }
}
