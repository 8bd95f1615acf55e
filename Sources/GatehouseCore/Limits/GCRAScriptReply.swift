import GatehouseIO

/// Reading `GCRAScript`'s reply: Redis's now and each limit's TAT as the batch found it.
extension GCRAScriptCall {
    /// The decisions the script's reply stands for, one per check in order (stage after stage,
    /// `stageSizes` checks each), or nil when it is not the script's reply to this call. The
    /// stages are replayed over the TATs the script found, in the same µs integers (exact in
    /// its doubles), one by one as the script's runs add up to: a stage passes when every limit
    /// in it has room, and only then moves their TATs on. Each check's decision comes from its
    /// TAT before its stage, as the memory store decides it.
    /// Later than any time Redis tells (µs since 1970: the year 2116) and far enough from
    /// Int64's end that nanoseconds and an interval added hold: a TAT past it is garbage in the
    /// key (another writer's value), and the reply is then not this script's (a store error,
    /// met with `on_failure`), where reading it would overflow.
    static let latestMicros: Int64 = Int64.max / GCRAScript.nanosPerMicro / 2

    func decisions(_ reply: RedisReply, for checks: [RateLimitCheck], stageSizes: some Sequence<Int>) -> [GCRADecision]? {
        guard case .array(let items) = reply, items.count == plan.limits.count + 1,
              plan.limitOfCheck.count == checks.count, case .integer(let now) = items[0],
              (0...Self.latestMicros).contains(now) else { return nil }
        // The TATs as the replay moves them: a few words, on the stack.
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: plan.limits.count) { tats -> [GCRADecision]? in
            for (index, item) in items.dropFirst().enumerated() {
                guard case .integer(let tat) = item, tat <= Self.latestMicros else { return nil }
                tats[index] = tat
            }
            let nanosPerMicro = GCRAScript.nanosPerMicro
            var decisions: [GCRADecision] = []
            decisions.reserveCapacity(checks.count)
            var first = 0
            for size in stageSizes {
                let stage = first..<first + size
                guard stage.upperBound <= checks.count else { return nil }
                var allowed = true
                for index in stage {
                    let limit = plan.limits[plan.limitOfCheck[index]]
                    let tat = tats[limit.slot]
                    decisions.append(checks[index].gcra.decide(tat: tat < 0 ? nil : tat * nanosPerMicro,
                                                               now: now * nanosPerMicro).decision)
                    if max(tat, now) - now > limit.toleranceMicros { allowed = false }
                }
                if allowed {
                    for index in stage {
                        let limit = plan.limits[plan.limitOfCheck[index]]
                        tats[limit.slot] = max(tats[limit.slot], now) + limit.intervalMicros
                    }
                }
                first = stage.upperBound
            }
            return first == checks.count ? decisions : nil
        }
    }
}
