import GatehouseConfig
import GatehouseIO
import Testing
@testable import GatehouseCore

/// The Redis store's side that needs no Redis: the script's arguments for a batch of stages, its
/// reply (one TAT per limit) replayed into the decisions the memory store would make, and what
/// `on_failure` answers without the store. The script itself runs against a real Redis in the
/// e2e suite.
struct RateLimitRedisStoreTests {
    static let second: Int64 = 1_000_000_000
    static let micro: Int64 = 1000

    static func check(_ key: String, count: Int = 10, burst: Int = 5) -> RateLimitCheck {
        RateLimitCheck(gcra: GCRA(count: count, windowSeconds: 1, burst: burst), key: Array(key.utf8))
    }

    /// A call as a worker's batch makes it, with fresh parameter text.
    static func call(_ checks: [RateLimitCheck], _ stageSizes: [Int], prefix: [UInt8] = []) -> GCRAScriptCall {
        var parameters = GCRAScriptParameters()
        return GCRAScriptCall(checks, stageSizes: stageSizes, prefix: prefix, parameters: &parameters)
    }

    @Test func evalshaNamesEachLimitOnceThenTheStagesThenTheIntervalsInMicroseconds() {
        let a = Self.check("a"), b = Self.check("b", count: 4, burst: 2)
        let command = Self.call([a, b, a, b], [2, 1, 1], prefix: Array("gatehouse:rl:".utf8)).command
        #expect(command.count == 2 + 1 + 2 + 1 + 6)
        let text = command.map { String(decoding: $0, as: UTF8.self) }
        #expect(Array(text[0..<5]) == ["EVALSHA", GCRAScript.sha1Hex, "2", "gatehouse:rl:a", "gatehouse:rl:b"])
        var parameters = GCRAScriptParameters()
        let again = GCRAScriptCall([a, b, a, b], stageSizes: [2, 1, 1], prefix: Array("gatehouse:rl:".utf8), parameters: &parameters)
        let reused = GCRAScriptCall([b], stageSizes: [1], prefix: [], parameters: &parameters)
        #expect(again.command == command && reused.command[5...] == command[9...])
        let storage = { (bytes: [UInt8]) in bytes.withUnsafeBufferPointer { $0.baseAddress } }
        #expect(storage(reused.command[5]) == storage(again.command[9]), "a rate's text is kept, not written again")
        // Per entry: its check count, its repeats, then each check's 1-based limit index in two bytes.
        #expect(command[5] == [2, 1, 0, 1, 0, 2, 1, 1, 0, 1, 1, 1, 0, 2])
        // T and τ in µs, then τ + T in ms (how long a key is kept).
        #expect(Array(text[6...]) == ["100000", "400000", "500", "250000", "250000", "500"])
        #expect(GCRAScript.sha1Hex.count == 40)
    }

    /// A key asked with other parameters (a reload between two stages of a batch) is a limit of
    /// its own, so each stage is judged by its own rate; both move the key's one TAT.
    @Test func theSameKeyWithOtherParametersIsALimitOfItsOwn() {
        let old = Self.check("a"), new = Self.check("a", count: 4, burst: 2)
        let call = Self.call([old, new], [1, 1])
        #expect(call.command[2] == Array("2".utf8))
        #expect(call.command[3] == Array("a".utf8) && call.command[4] == Array("a".utf8))
        // Not grouped by limit: the two share a key, so their order stays.
        #expect(call.command[5] == [1, 1, 0, 1, 1, 1, 0, 2])
        #expect(call.plan.limits.map(\.slot) == [0, 0])
        let now: Int64 = 5_000_000
        let decisions = call.decisions(.array([.integer(now), .integer(-1), .integer(-1)]), for: [old, new], stageSizes: [1, 1])
        let afterOld = old.gcra.decide(tat: nil, now: now * Self.micro).tat
        #expect(decisions == [old.gcra.decide(tat: nil, now: now * Self.micro).decision,
                              new.gcra.decide(tat: afterOld, now: now * Self.micro).decision])
    }

    static func entries(_ stages: [[RateLimitCheck]]) -> [UInt8] {
        Self.call(stages.flatMap { $0 }, stages.map(\.count)).command[3 + Set(stages.flatMap { $0 }.map(\.key)).count]
    }

    /// The script decides a run of one-limit stages in one step, so the batch is sent as few
    /// entries as its order allows.
    @Test func stagesGoAsFewEntriesAsTheirOrderAllows() {
        let a = Self.check("a"), b = Self.check("b"), c = Self.check("c")
        // One route key: the whole batch is one entry.
        #expect(Self.entries(Array(repeating: [a], count: 22)) == [1, 22, 0, 1])
        // One-check stages on different keys: one entry per key, wherever its stages stand.
        #expect(Self.entries([[a], [b], [a], [c], [b], [a]]) == [1, 3, 0, 1, 1, 2, 0, 2, 1, 1, 0, 3])
        // A repeat count is one byte: longer runs take more entries.
        #expect(Self.entries(Array(repeating: [a], count: 300)) == [1, 255, 0, 1, 1, 45, 0, 1])
        // With a stage of two limits, order matters: only equal stages in a row are merged.
        #expect(Self.entries([[a, b], [a, b], [a, b], [a], [b], [b]])
                == [2, 3, 0, 1, 0, 2, 1, 1, 0, 1, 1, 2, 0, 2])
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
        #expect(Self.call([check], [1]).decisions(reply, for: [check], stageSizes: [1]) == [expected])
    }

    /// Stages of a batch, some of two limits: the reply's TATs replayed stage by stage decide
    /// exactly what the memory store decides for the same stages one after another — a stage
    /// passes only when all its limits have room, and a refused stage moves no TAT.
    @Test func aBatchIsReplayedStageByStageAsTheMemoryStoreDecidesIt() {
        let a = Self.check("a"), b = Self.check("b", count: 4, burst: 2)
        let stages: [[RateLimitCheck]] = [[a, b], [a], [a, b], [a, b], [b], [a], [a], [a], [a]]
        let now: Int64 = 5_000_000
        let oracle = MemoryRateLimitStore()
        // b was last seen 0.1 s ago, with one of its burst of 2 still free; a never.
        _ = oracle.decide(b, now: (now - 100_000) * Self.micro)
        let storedB = (now - 100_000) * Self.micro + b.gcra.emissionInterval
        var expected: [GCRADecision] = []
        for stage in stages { expected += oracle.decide(stage, now: now * Self.micro) }
        let checks = stages.flatMap { $0 }
        let call = Self.call(checks, stages.map(\.count))
        #expect(call.command[2] == Array("2".utf8), "each limit is named once")
        let reply = RedisReply.array([.integer(now), .integer(-1), .integer(storedB / Self.micro)])
        let decisions = call.decisions(reply, for: checks, stageSizes: stages.map(\.count))
        #expect(decisions == expected)
        // a: T 0.1 s, τ 0.4 s; b: T 0.25 s, τ 0.25 s, its TAT 0.15 s ahead. b's free request
        // passes with the first stage; each later stage with b is refused whole (a's decision
        // in it says it had room, but it is not counted), so a still has three of its burst.
        #expect(decisions?.map(\.allowed) == [true, true, true, true, false, true, false, false, true, true, true, false])
    }

    @Test func aReplyThatIsNotTheScriptsIsRefused() {
        let checks = [Self.check("a"), Self.check("b")]
        let call = Self.call(checks, [2])
        #expect(call.decisions(.array([.integer(1), .integer(-1)]), for: checks, stageSizes: [2]) == nil)
        #expect(call.decisions(.error("NOSCRIPT No matching script"), for: checks, stageSizes: [2]) == nil)
        #expect(call.decisions(.array([.integer(1), .bulk([]), .integer(-1)]), for: checks, stageSizes: [2]) == nil)
        #expect(call.decisions(.array([.integer(1), .integer(-1), .integer(-1), .integer(-1)]), for: checks,
                               stageSizes: [2]) == nil)
        // Times no Redis tells (a key holding 1e17, a forged reply): refused, where read in
        // nanoseconds they would overflow.
        let now: Int64 = 1_760_000_000_000_000
        #expect(call.decisions(.array([.integer(now), .integer(100_000_000_000_000_000), .integer(-1)]), for: checks,
                               stageSizes: [2]) == nil)
        #expect(call.decisions(.array([.integer(Int64.max / 10), .integer(-1), .integer(-1)]), for: checks,
                               stageSizes: [2]) == nil)
        #expect(call.decisions(.array([.integer(-5), .integer(-1), .integer(-1)]), for: checks, stageSizes: [2]) == nil)
        #expect(call.decisions(.array([.integer(now), .integer(now), .integer(-1)]), for: checks, stageSizes: [2]) != nil)
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
