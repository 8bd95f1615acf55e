import COpenSSL
import GatehouseIO

/// The GCRA of `GCRA.swift` as one Lua script over every key of a limit stage, so a decision is
/// one Redis round trip and all-or-nothing like `MemoryRateLimitStore`: when any key refuses,
/// none is written. Time is Redis's own clock (`TIME`), the one clock every replica shares;
/// Lua numbers are doubles, so times are microseconds (exact up to 2^53 µs, some 285 years).
///
/// KEYS: the stage's keys. ARGV: per key, its emission interval T and tolerance τ in µs.
/// Reply: Redis's now, then each key's TAT before this request (-1: none), all in µs; the
/// decisions themselves are computed from them by `GCRA.decide`, the same code the memory store
/// runs. Each written key expires when its TAT is reached: state that says "full burst" is
/// worth nothing.
enum GCRAScript {
    static let source = """
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
        local stored = {}
        local allowed = true
        for i, key in ipairs(KEYS) do
          local tolerance = tonumber(ARGV[2 * i])
          local tat = tonumber(redis.call('GET', key))
          stored[i] = tat or -1
          if math.max(tat or now, now) - now > tolerance then allowed = false end
        end
        if allowed then
          for i, key in ipairs(KEYS) do
            local interval = tonumber(ARGV[2 * i - 1])
            local tat = math.max(stored[i], now) + interval
            redis.call('SET', key, string.format('%.0f', tat), 'PX', math.max(1, math.ceil((tat - now) / 1000)))
          end
        end
        local reply = { now }
        for i = 1, #stored do reply[i + 1] = stored[i] end
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

    /// `EVALSHA sha n key… T τ …` for `checks`, each key behind `prefix`.
    static func evalCommand(_ checks: [RateLimitCheck], prefix: [UInt8]) -> [[UInt8]] {
        var arguments = evalPrefix
        arguments.reserveCapacity(evalPrefix.count + 1 + 3 * checks.count)
        arguments.append(Array(String(checks.count).utf8))
        for check in checks { arguments.append(prefix + check.key) }
        for check in checks {
            arguments.append(Array(String(check.gcra.emissionInterval / nanosPerMicro).utf8))
            arguments.append(Array(String(check.gcra.tolerance / nanosPerMicro).utf8))
        }
        return arguments
    }

    /// The decisions the script's reply stands for, or nil when it is not the script's reply.
    static func decisions(_ reply: RedisReply, for checks: [RateLimitCheck]) -> [GCRADecision]? {
        guard case .array(let items) = reply, items.count == checks.count + 1 else { return nil }
        var numbers: [Int64] = []
        numbers.reserveCapacity(items.count)
        for item in items {
            guard case .integer(let number) = item else { return nil }
            numbers.append(number)
        }
        let now = numbers[0] * nanosPerMicro
        return zip(checks, numbers.dropFirst()).map { check, storedTAT in
            check.gcra.decide(tat: storedTAT < 0 ? nil : storedTAT * nanosPerMicro, now: now).decision
        }
    }
}
