import COpenSSL
import GatehouseHTTP
import GatehouseIO

/// The GCRA of `GCRA.swift` as one Lua script over a batch of limit stages, so one Redis round
/// trip decides every stage one worker asked about during one loop iteration
/// (`RedisRateLimitBatch.swift`). Each stage is all-or-nothing like `MemoryRateLimitStore`:
/// when any of its keys refuses, none is counted. Stages are decided in order, each seeing the
/// ones before it, exactly as the same stages sent one by one would be; Redis runs a script
/// atomically, so no other client's request falls between them. Time is Redis's own clock
/// (`TIME`), the one clock every replica shares; Lua numbers are doubles, so times are
/// microseconds (exact up to 2^53 µs, some 285 years).
///
/// KEYS: the batch's distinct limits (a key with its T and τ). ARGV[1]: the stages as bytes —
/// per stage its check count, then per check the 1-based index of its limit in two bytes, big
/// endian. ARGV[2i], ARGV[2i+1]: limit i's emission interval T and tolerance τ in µs. Text
/// numbers cost Redis a `strtod` each, so a batch of a hundred requests on one key parses
/// two, not three hundred. Reply: Redis's now, then for every check of every stage, in order,
/// its key's TAT before that stage (-1: none), all in µs; the decisions are computed from them
/// by `GCRA.decide`, the same code the memory store runs. Each key is read once and written
/// once per batch, and expires when its TAT is reached: state that says "full burst" is worth
/// nothing.
enum GCRAScript {
    static let source = """
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
        local intervals, tolerances, tats, written = {}, {}, {}, {}
        for i, key in ipairs(KEYS) do
          intervals[i] = tonumber(ARGV[2 * i])
          tolerances[i] = tonumber(ARGV[2 * i + 1])
          if tats[key] == nil then tats[key] = tonumber(redis.call('GET', key)) or -1 end
        end
        local stages = ARGV[1]
        local reply = { now }
        local at = 1
        while at <= #stages do
          local count = string.byte(stages, at)
          local first = at + 1
          local allowed = true
          for j = 0, count - 1 do
            local high, low = string.byte(stages, first + 2 * j, first + 2 * j + 1)
            local i = high * 256 + low
            local tat = tats[KEYS[i]]
            reply[#reply + 1] = tat
            if math.max(tat, now) - now > tolerances[i] then allowed = false end
          end
          if allowed then
            for j = 0, count - 1 do
              local high, low = string.byte(stages, first + 2 * j, first + 2 * j + 1)
              local i = high * 256 + low
              local key = KEYS[i]
              tats[key] = math.max(tats[key], now) + intervals[i]
              written[key] = true
            end
          end
          at = first + 2 * count
        end
        for key in pairs(written) do
          local tat = tats[key]
          redis.call('SET', key, string.format('%.0f', tat), 'PX', math.max(1, math.ceil((tat - now) / 1000)))
        end
        return reply
        """

    static let sha1Hex: String = {
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        let bytes = Array(source.utf8)
        _ = SHA1(bytes, bytes.count, &digest)
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0xf)]] }, as: UTF8.self)
    }()

    /// `SCRIPT LOAD`, sent when a connection is made, so EVALSHA finds the script.
    static let loadCommand: [[UInt8]] = [Array("SCRIPT".utf8), Array("LOAD".utf8), Array(source.utf8)]

    static let nanosPerMicro: Int64 = 1000
    /// `EVALSHA <sha1>`, built once.
    private static let evalPrefix: [[UInt8]] = [Array("EVALSHA".utf8), Array(sha1Hex.utf8)]

    /// Limits (distinct keys with their parameters) one script call can name: two bytes each.
    static let maximumLimits = Int(UInt16.max)
    /// Checks one stage can have: one byte.
    static let maximumChecksPerStage = Int(UInt8.max)

    /// `EVALSHA sha n key… stages T τ …` for a batch of stages, each key behind `prefix`: the
    /// stages take their checks from `checks` in order, `stageSizes` of them each. A batch
    /// stays far inside both bounds (`RedisRateLimitBatch.maximumStages`, a route's few limits).
    static func evalCommand(_ checks: [RateLimitCheck], stageSizes: some Sequence<Int>, prefix: [UInt8]) -> [[UInt8]] {
        var limits: [RateLimitCheck] = []
        var stageBytes: [UInt8] = []
        stageBytes.reserveCapacity(stageSizes.underestimatedCount + 2 * checks.count)
        var next = 0
        for size in stageSizes {
            precondition(size <= maximumChecksPerStage, "a route has a few limits")
            stageBytes.append(UInt8(size))
            for check in checks[next..<next + size] {
                // A scan of the limits named so far, comparing their hashes first: a batch
                // usually names one per route asked, and a map would hash every key and build
                // its table on each call. The same key with other parameters (a reload between
                // two stages) is a limit of its own; the script keeps one TAT per key either way.
                let known = limits.firstIndex {
                    $0.keyHash == check.keyHash && $0.gcra == check.gcra && $0.key == check.key
                }
                let index = known ?? limits.count
                if known == nil { limits.append(check) }
                precondition(index < maximumLimits, "a batch names a few hundred limits at most")
                let oneBased = index + 1
                stageBytes.append(UInt8(oneBased >> 8))
                stageBytes.append(UInt8(oneBased & 0xff))
            }
            next += size
        }
        var arguments = evalPrefix
        arguments.reserveCapacity(evalPrefix.count + 2 + 3 * limits.count)
        arguments.append(decimal(Int64(limits.count)))
        for limit in limits { arguments.append(prefix + limit.key) }
        arguments.append(stageBytes)
        for limit in limits {
            arguments.append(decimal(limit.gcra.emissionInterval / nanosPerMicro))
            arguments.append(decimal(limit.gcra.tolerance / nanosPerMicro))
        }
        return arguments
    }

    /// The decisions the script's reply stands for, one per check in order (stage after stage),
    /// or nil when it is not the script's reply to `checks`.
    static func decisions(_ reply: RedisReply, for checks: [RateLimitCheck]) -> [GCRADecision]? {
        guard case .array(let items) = reply, items.count == checks.count + 1,
              case .integer(let nowMicros) = items[0] else { return nil }
        let now = nowMicros * nanosPerMicro
        var decisions: [GCRADecision] = []
        decisions.reserveCapacity(checks.count)
        for (check, item) in zip(checks, items.dropFirst()) {
            guard case .integer(let storedTAT) = item else { return nil }
            decisions.append(check.gcra.decide(tat: storedTAT < 0 ? nil : storedTAT * nanosPerMicro, now: now).decision)
        }
        return decisions
    }

    private static func decimal(_ value: Int64) -> [UInt8] {
        var digits: [UInt8] = []
        digits.append(decimal: Int(value))
        return digits
    }
}
