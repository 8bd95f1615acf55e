import GatehouseHTTP
import GatehouseIO

/// One call of `GCRAScript` for a batch of stages: the EVALSHA command, and the plan its reply
/// is read by (`GCRAScriptReply.swift`). A call is made per batch, so it keeps its arrays few:
/// a batch of a handful of requests (a lightly loaded gateway) pays for them per request.
struct GCRAScriptCall {
    let command: [[UInt8]]
    let plan: Plan

    /// What the call asked, in the terms its reply is read in: each limit's check, parameters
    /// in µs and TAT slot — limits of one key (the same key with other parameters, after a
    /// reload) share the key's TAT, as they do in the script — and each check's limit.
    struct Plan {
        struct Limit {
            let check: RateLimitCheck
            let slot: Int
            let intervalMicros: Int64
            let toleranceMicros: Int64
        }
        fileprivate(set) var limits: [Limit] = []
        fileprivate(set) var limitOfCheck: [Int] = []
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
    /// `parameters` keeps each rate's three numbers as text from one batch to the next.
    init(_ checks: [RateLimitCheck], stageSizes: some Collection<Int>, prefix: [UInt8],
         parameters: inout GCRAScriptParameters) {
        var plan = Plan()
        plan.limitOfCheck.reserveCapacity(checks.count)
        for check in checks {
            // A scan of the limits named so far, comparing their hashes first: a batch usually
            // names one per route asked, and a map would hash every key and build its table on
            // each call. The same key with other parameters (a reload between two stages) is a
            // limit of its own; the script keeps one TAT per key either way.
            let known = plan.limits.firstIndex {
                $0.check.keyHash == check.keyHash && $0.check.gcra == check.gcra && $0.check.key == check.key
            }
            let index = known ?? plan.limits.count
            if known == nil {
                precondition(index < Self.maximumLimits, "a batch names a few hundred limits at most")
                let slot = plan.limits.firstIndex { $0.check.keyHash == check.keyHash && $0.check.key == check.key }
                plan.limits.append(Plan.Limit(check: check, slot: slot ?? index,
                                              intervalMicros: check.gcra.emissionInterval / GCRAScript.nanosPerMicro,
                                              toleranceMicros: check.gcra.tolerance / GCRAScript.nanosPerMicro))
            }
            plan.limitOfCheck.append(index)
        }
        var arguments = Self.evalPrefix
        arguments.reserveCapacity(Self.evalPrefix.count + 2 + 4 * plan.limits.count)
        arguments.append(parameters.decimal(plan.limits.count))
        for limit in plan.limits { arguments.append(prefix + limit.check.key) }
        arguments.append(Self.stageEntries(plan, stageSizes: stageSizes))
        for limit in plan.limits { arguments.append(contentsOf: parameters.arguments(for: limit.check.gcra)) }
        self.command = arguments
        self.plan = plan
    }

    /// The stages as the script reads them: entries of a check count, a repeat count and the
    /// checks' 1-based limit indexes. Equal stages in a row are one entry. When every stage has
    /// one check and no two limits share a key — the usual batch — the stages of each limit are
    /// one entry wherever they stand: stages on different keys never see each other, so only
    /// the order within one key matters, and within one limit every stage is the same.
    static func stageEntries(_ plan: Plan, stageSizes: some Collection<Int>) -> [UInt8] {
        var bytes: [UInt8] = []
        let keysDistinct = plan.limits.indices.allSatisfy { plan.limits[$0].slot == $0 }
        if keysDistinct, plan.limitOfCheck.count == stageSizes.count {
            bytes.reserveCapacity(4 * plan.limits.count)
            for limit in plan.limits.indices {
                appendEntries(of: CollectionOfOne(limit), times: plan.limitOfCheck.count { $0 == limit }, to: &bytes)
            }
            return bytes
        }
        bytes.reserveCapacity(4 * stageSizes.count)
        var first = 0
        var run: ArraySlice<Int> = []
        var times = 0
        for size in stageSizes {
            precondition(size <= maximumChecksPerStage, "a route has a few limits")
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
}

/// The script's numbers as text, kept per rate by each worker's batch (`RedisRateLimitBatch`):
/// a rate's T and τ in µs and τ + T in ms, and the small counts a batch names. Without it,
/// every batch would write them again, three arrays for each limit it names.
struct GCRAScriptParameters {
    private var byRate: [GCRA: [[UInt8]]] = [:]
    private var counts: [[UInt8]] = []

    mutating func arguments(for gcra: GCRA) -> [[UInt8]] {
        if let known = byRate[gcra] { return known }
        let interval = gcra.emissionInterval / GCRAScript.nanosPerMicro
        let tolerance = gcra.tolerance / GCRAScript.nanosPerMicro
        let lifetime = max(1, (tolerance + interval + GCRAScript.microsPerMilli - 1) / GCRAScript.microsPerMilli)
        let made = [Self.text(interval), Self.text(tolerance), Self.text(lifetime)]
        byRate[gcra] = made
        return made
    }

    mutating func decimal(_ count: Int) -> [UInt8] {
        while counts.count <= count { counts.append(Self.text(Int64(counts.count))) }
        return counts[count]
    }

    private static func text(_ value: Int64) -> [UInt8] {
        var digits: [UInt8] = []
        digits.append(decimal: Int(value))
        return digits
    }
}
