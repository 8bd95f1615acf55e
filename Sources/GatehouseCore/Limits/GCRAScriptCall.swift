import GatehouseHTTP
import GatehouseIO

/// One call of `GCRAScript` for a batch of stages: the EVALSHA command, and the plan its reply
/// is read by (`GCRAScriptReply.swift`).
struct GCRAScriptCall {
    let command: [[UInt8]]
    let plan: Plan

    /// What the call asked, in the terms its reply is read in: each check's limit, and each
    /// limit's parameters in µs and its TAT slot — limits of one key (the same key with other
    /// parameters, after a reload) share the key's TAT, as they do in the script.
    struct Plan {
        struct Limit {
            let slot: Int
            let intervalMicros: Int64
            let toleranceMicros: Int64
        }
        fileprivate(set) var limits: [Limit] = []
        fileprivate(set) var limitOfCheck: [Int] = []
        fileprivate(set) var stageSizes: [Int] = []
    }

    /// Limits (distinct keys with their parameters) one call can name: two bytes each.
    static let maximumLimits = Int(UInt16.max)
    /// Checks one stage can have, and times one entry can repeat: one byte each.
    static let maximumChecksPerStage = Int(UInt8.max)
    static let maximumRepeats = Int(UInt8.max)

    /// `EVALSHA <sha1>`, built once.
    private static let evalPrefix: [[UInt8]] = [Array("EVALSHA".utf8), Array(GCRAScript.sha1Hex.utf8)]

    /// `EVALSHA sha n key… stages T τ ttl …` for a batch of stages, each key behind `prefix`:
    /// the stages take their checks from `checks` in order, `stageSizes` of them each. A batch
    /// stays far inside the bounds (`RedisRateLimitBatch.maximumStages`, a route's few limits).
    init(_ checks: [RateLimitCheck], stageSizes: some Sequence<Int>, prefix: [UInt8]) {
        var limits: [RateLimitCheck] = []
        var plan = Plan()
        plan.limitOfCheck.reserveCapacity(checks.count)
        plan.stageSizes.reserveCapacity(stageSizes.underestimatedCount)
        var next = 0
        for size in stageSizes {
            precondition(size <= Self.maximumChecksPerStage, "a route has a few limits")
            plan.stageSizes.append(size)
            for check in checks[next..<next + size] {
                // A scan of the limits named so far, comparing their hashes first: a batch
                // usually names one per route asked, and a map would hash every key and build
                // its table on each call. The same key with other parameters (a reload between
                // two stages) is a limit of its own; the script keeps one TAT per key either way.
                let known = limits.firstIndex {
                    $0.keyHash == check.keyHash && $0.gcra == check.gcra && $0.key == check.key
                }
                let index = known ?? limits.count
                if known == nil {
                    let slot = limits.firstIndex { $0.keyHash == check.keyHash && $0.key == check.key } ?? index
                    limits.append(check)
                    plan.limits.append(Plan.Limit(slot: slot,
                                                  intervalMicros: check.gcra.emissionInterval / GCRAScript.nanosPerMicro,
                                                  toleranceMicros: check.gcra.tolerance / GCRAScript.nanosPerMicro))
                }
                precondition(index < Self.maximumLimits, "a batch names a few hundred limits at most")
                plan.limitOfCheck.append(index)
            }
            next += size
        }
        var arguments = Self.evalPrefix
        arguments.reserveCapacity(Self.evalPrefix.count + 2 + 4 * limits.count)
        arguments.append(Self.decimal(Int64(limits.count)))
        for limit in limits { arguments.append(prefix + limit.key) }
        arguments.append(Self.stageEntries(plan))
        for limit in plan.limits {
            arguments.append(Self.decimal(limit.intervalMicros))
            arguments.append(Self.decimal(limit.toleranceMicros))
            let lifetime = limit.toleranceMicros + limit.intervalMicros
            arguments.append(Self.decimal(max(1, (lifetime + GCRAScript.microsPerMilli - 1) / GCRAScript.microsPerMilli)))
        }
        self.command = arguments
        self.plan = plan
    }

    /// The stages as the script reads them: entries of a check count, a repeat count and the
    /// checks' 1-based limit indexes. Equal stages in a row are one entry. When every stage has
    /// one check and no two limits share a key — the usual batch — the stages of each limit are
    /// one entry wherever they stand: stages on different keys never see each other, so only
    /// the order within one key matters, and within one limit every stage is the same.
    static func stageEntries(_ plan: Plan) -> [UInt8] {
        var bytes: [UInt8] = []
        let keysDistinct = plan.limits.indices.allSatisfy { plan.limits[$0].slot == $0 }
        if keysDistinct, plan.stageSizes.allSatisfy({ $0 == 1 }) {
            var counts = [Int](repeating: 0, count: plan.limits.count)
            for limit in plan.limitOfCheck { counts[limit] += 1 }
            bytes.reserveCapacity(4 * counts.count)
            for (limit, count) in counts.enumerated() { appendEntries(of: [limit], times: count, to: &bytes) }
            return bytes
        }
        bytes.reserveCapacity(4 * plan.stageSizes.count)
        var first = 0
        var run: ArraySlice<Int> = []
        var times = 0
        for size in plan.stageSizes {
            let stage = plan.limitOfCheck[first..<first + size]
            first += size
            if times > 0, stage.elementsEqual(run) {
                times += 1
                continue
            }
            appendEntries(of: run, times: times, to: &bytes)
            run = stage
            times = 1
        }
        appendEntries(of: run, times: times, to: &bytes)
        return bytes
    }

    /// `times` repeats of one stage, in entries of at most `maximumRepeats`.
    private static func appendEntries(of stage: some Collection<Int>, times: Int, to bytes: inout [UInt8]) {
        var left = times
        while left > 0 {
            let repeats = min(left, maximumRepeats)
            bytes.append(UInt8(stage.count))
            bytes.append(UInt8(repeats))
            for limit in stage {
                let oneBased = limit + 1
                bytes.append(UInt8(oneBased >> 8))
                bytes.append(UInt8(oneBased & 0xff))
            }
            left -= repeats
        }
    }

    private static func decimal(_ value: Int64) -> [UInt8] {
        var digits: [UInt8] = []
        digits.append(decimal: Int(value))
        return digits
    }
}
