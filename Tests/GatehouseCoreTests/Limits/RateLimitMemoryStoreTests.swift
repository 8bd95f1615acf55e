import Foundation
import Synchronization
import Testing
@testable import GatehouseCore

/// The process-wide memory store: one allowance for all threads, all-or-nothing stages,
/// bounded memory.
struct RateLimitMemoryStoreTests {
    static let second: Int64 = 1_000_000_000

    static func check(_ key: String, count: Int = 10, burst: Int = 5) -> RateLimitCheck {
        RateLimitCheck(gcra: GCRA(count: count, windowSeconds: 1, burst: burst), key: Array(key.utf8))
    }

    @Test func keysAreIndependent() {
        let store = MemoryRateLimitStore()
        for _ in 0..<5 { #expect(store.decide([Self.check("a")], now: 0).first?.allowed == true) }
        #expect(store.decide([Self.check("a")], now: 0).first?.allowed == false)
        #expect(store.decide([Self.check("b")], now: 0).first?.allowed == true)
    }

    /// Eight threads hammer one key at the same instant: exactly the burst passes in total.
    @Test func oneAllowanceForEveryThread() {
        let store = MemoryRateLimitStore()
        let allowed = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<100 where store.decide([Self.check("shared", burst: 20)], now: 0)[0].allowed {
                allowed.withLock { $0 += 1 }
            }
        }
        #expect(allowed.withLock { $0 } == 20)
    }

    /// A stage is refused as a whole: the limit that allowed does not count the request.
    @Test func aRefusedStageCountsNowhere() {
        let store = MemoryRateLimitStore()
        let loose = Self.check("loose", count: 100, burst: 3)
        let tight = Self.check("tight", count: 1, burst: 1)
        #expect(store.decide([loose, tight], now: 0).map(\.allowed) == [true, true])
        for _ in 0..<5 { #expect(store.decide([loose, tight], now: 0).map(\.allowed) == [true, false]) }
        // Only the first request counted against `loose`: two of its three remain.
        #expect(store.decide([loose], now: 0).first?.remaining == 1)
    }

    @Test func deadEntriesMakeRoomFirst() {
        let store = MemoryRateLimitStore(capacity: MemoryRateLimitStore.stripeCount * 4)
        for index in 0..<2_000 { _ = store.decide([Self.check("old-\(index)")], now: 0) }
        let capacity = MemoryRateLimitStore.stripeCount * 4
        #expect(store.count <= capacity)
        // A minute later every old entry is dead: new keys replace them and all pass.
        for index in 0..<2_000 {
            #expect(store.decide([Self.check("new-\(index)")], now: 60 * Self.second).first?.allowed == true)
        }
        #expect(store.count <= capacity)
    }

    /// Over capacity with only live keys, the ones closest to full are evicted; the newest stay.
    @Test func liveEntriesEvictedEarliestFirst() {
        let store = MemoryRateLimitStore(capacity: MemoryRateLimitStore.stripeCount * 8)
        let hot = Self.check("hot", count: 1, burst: 1)
        for index in 0..<5_000 {
            _ = store.decide([Self.check("k-\(index)", count: 1, burst: 1)], now: Int64(index) * 1_000)
            if index == 4_990 { _ = store.decide([hot], now: Int64(index) * 1_000) }
        }
        #expect(store.count <= MemoryRateLimitStore.stripeCount * 8)
        #expect(store.decide([hot], now: 5_000 * 1_000).first?.allowed == false, "a recent key is kept")
    }
}
