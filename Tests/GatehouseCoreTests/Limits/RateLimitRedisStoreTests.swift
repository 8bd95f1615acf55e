import GatehouseConfig
import GatehouseIO
import Testing
@testable import GatehouseCore

/// The Redis store's side that needs no Redis: the script's arguments for a batch of stages, its
/// reply read back as the decisions the memory store would make, and what `on_failure` answers
/// without the store. The script itself runs against a real Redis in the e2e suite.
struct RateLimitRedisStoreTests {
    static let second: Int64 = 1_000_000_000
    static let micro: Int64 = 1000

    static func check(_ key: String, count: Int = 10, burst: Int = 5) -> RateLimitCheck {
        RateLimitCheck(gcra: GCRA(count: count, windowSeconds: 1, burst: burst), key: Array(key.utf8))
    }

    @Test func evalshaNamesEachLimitOnceThenTheStagesAsIndexesThenTheIntervalsInMicroseconds() {
        let a = Self.check("a"), b = Self.check("b", count: 4, burst: 2)
        let command = GCRAScript.evalCommand([a, b, a, b], stageSizes: [2, 1, 1], prefix: Array("gatehouse:rl:".utf8))
        #expect(command.count == 2 + 1 + 2 + 1 + 4)
        let text = command.map { String(decoding: $0, as: UTF8.self) }
        #expect(Array(text[0..<5]) == ["EVALSHA", GCRAScript.sha1Hex, "2", "gatehouse:rl:a", "gatehouse:rl:b"])
        // Per stage: its check count, then each check's 1-based limit index in two bytes.
        #expect(command[5] == [2, 0, 1, 0, 2, 1, 0, 1, 1, 0, 2])
        #expect(Array(text[6...]) == ["100000", "400000", "250000", "250000"])
        #expect(GCRAScript.sha1Hex.count == 40)
    }

    /// A key asked with other parameters (a reload between two stages of a batch) is a limit of
    /// its own, so each stage is judged by its own rate.
    @Test func theSameKeyWithOtherParametersIsALimitOfItsOwn() {
        let old = Self.check("a"), new = Self.check("a", count: 4, burst: 2)
        let command = GCRAScript.evalCommand([old, new], stageSizes: [1, 1], prefix: [])
        #expect(command[2] == Array("2".utf8))
        #expect(command[3] == Array("a".utf8) && command[4] == Array("a".utf8))
        #expect(command[5] == [1, 0, 1, 1, 0, 2])
    }

    /// Rows: the TAT Redis had (µs, -1 none) at Redis's now, and the decision the memory store
    /// makes with the same state.
    static let rows: [(storedMicros: Int64, nowMicros: Int64)] = [
        (-1, 5_000_000),            // never seen: full burst
        (5_000_000, 5_000_000),     // one used
        (5_400_000, 5_000_000),     // the last of the burst
        (5_500_000, 5_000_000),     // burst used up: refused
        (5_300_000, 5_000_000),     // one left
        (4_000_000, 5_000_000),     // in the past: full burst again
    ]

    @Test(arguments: rows)
    func replyMeansWhatTheMemoryStoreWouldDecide(_ row: (storedMicros: Int64, nowMicros: Int64)) {
        let check = Self.check("k")
        let reply = RedisReply.array([.integer(row.nowMicros), .integer(row.storedMicros)])
        let stored = row.storedMicros < 0 ? nil : row.storedMicros * Self.micro
        let expected = check.gcra.decide(tat: stored, now: row.nowMicros * Self.micro).decision
        #expect(GCRAScript.decisions(reply, for: [check]) == [expected])
    }

    /// A batch's reply is one TAT per key of each stage, in order: one decision each.
    @Test func aBatchReplyIsOneDecisionPerCheckInOrder() {
        let first = [Self.check("a"), Self.check("b")]
        let second = [Self.check("a")]
        let now: Int64 = 5_000_000
        let reply = RedisReply.array([.integer(now), .integer(-1), .integer(5_500_000), .integer(5_100_000)])
        let decide = { (check: RateLimitCheck, stored: Int64?) in
            check.gcra.decide(tat: stored.map { $0 * Self.micro }, now: now * Self.micro).decision
        }
        let decisions = GCRAScript.decisions(reply, for: first + second)
        #expect(decisions == [decide(first[0], nil), decide(first[1], 5_500_000), decide(second[0], 5_100_000)])
        #expect(decisions?.map(\.allowed) == [true, false, true])
    }

    @Test func aReplyThatIsNotTheScriptsIsRefused() {
        let checks = [Self.check("a"), Self.check("b")]
        #expect(GCRAScript.decisions(.array([.integer(1), .integer(-1)]), for: checks) == nil)
        #expect(GCRAScript.decisions(.error("NOSCRIPT No matching script"), for: checks) == nil)
        #expect(GCRAScript.decisions(.array([.integer(1), .bulk([]), .integer(-1)]), for: checks) == nil)
        #expect(GCRAScript.decisions(.array([.integer(1), .integer(-1), .integer(-1)]), for: checks + checks) == nil)
    }

    static func store(_ policy: StoreConfig.FailurePolicy) -> RedisRateLimitStore {
        RedisRateLimitStore(store: StoreConfig(name: "unit-\(policy)", url: RedisURL(host: "127.0.0.1"), onFailure: policy))
    }

    @Test func localDecidesWithThisProcessesMemory() {
        let store = Self.store(.local)
        var allowed = 0
        for _ in 0..<8 {
            guard case .decided(let decisions) = store.answerWithoutStore([Self.check("local")], now: 0) else {
                Issue.record("local must decide")
                return
            }
            if decisions[0].allowed { allowed += 1 }
        }
        #expect(allowed == 5)
    }

    @Test func openAllowsEveryRequestWithAFullBurst() {
        for _ in 0..<8 {
            guard case .decided(let decisions) = Self.store(.open).answerWithoutStore([Self.check("open")], now: 0) else {
                Issue.record("open must decide")
                return
            }
            #expect(decisions == [GCRADecision(allowed: true, remaining: 4, resetSeconds: 1, retryAfterSeconds: 0)])
        }
    }

    @Test func closedIsUnavailable() {
        guard case .unavailable = Self.store(.closed).answerWithoutStore([Self.check("closed")], now: 0) else {
            Issue.record("closed must be unavailable")
            return
        }
    }
}
