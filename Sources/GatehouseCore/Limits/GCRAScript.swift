import COpenSSL

/// The GCRA of `GCRA.swift` as one Lua script over a batch of limit stages, so one Redis round
/// trip decides every stage one worker asked about during one loop iteration
/// (`RedisRateLimitBatch.swift`). Each stage is all-or-nothing like `MemoryRateLimitStore`:
/// when any of its keys refuses, none is counted. Stages are decided in order, each seeing the
/// ones before it, exactly as the same stages sent one by one would be; Redis runs a script
/// atomically, so no other client's request falls between them. Time is Redis's own clock
/// (`TIME`), the one clock every replica shares; Lua numbers are doubles, so times are
/// microseconds (exact up to 2^53 µs, some 285 years).
///
/// KEYS: the batch's distinct limits (a key with its T and τ). ARGV[1]: the stages as bytes
/// (`GCRAScriptCall.swift`) — per entry its check count, how many times the stage repeats,
/// then per check the 1-based index of its limit in two bytes, big endian. ARGV[3i-1],
/// ARGV[3i], ARGV[3i+1]: limit i's emission interval T and tolerance τ in µs, and τ + T in
/// ms, the longest a key of it is worth keeping. Text numbers cost Redis a `strtod` each, so a
/// batch of a hundred requests on one key parses three, not three hundred.
///
/// The usual entry is a run of one-limit stages: its first k pass while the key has room, each
/// moving the TAT one T on, so the script decides the run in one step (k = ⌊(now + τ − TAT)/T⌋
/// + 1, at most the run's length, exact in doubles for these magnitudes) instead of a loop
/// per request: a script step costs Redis far more than the same arithmetic in the gateway.
///
/// Reply: Redis's now, then each limit's TAT as the batch found it (-1: none), all in µs — one
/// number per limit, not per request. The stages' decisions follow from those alone, so the
/// gateway replays the stages over them (`GCRAScriptReply.swift`, the same integer
/// arithmetic). Each key is read once and written once per batch, with an expiry of τ + T
/// after the write: by then its TAT is past, and a past TAT means a full burst, the same as no
/// key.
enum GCRAScript {
    static let source = """
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
        local tats, written, reply = {}, {}, { now }
        for i, key in ipairs(KEYS) do
          local tat = tats[key]
          if tat == nil then
            tat = tonumber(redis.call('GET', key)) or -1
            tats[key] = tat
          end
          reply[i + 1] = tat
        end
        local stages = ARGV[1]
        local at = 1
        while at <= #stages do
          local count, times = string.byte(stages, at, at + 1)
          local first = at + 2
          if count == 1 then
            local high, low = string.byte(stages, first, first + 1)
            local i = high * 256 + low
            local key = KEYS[i]
            local interval = tonumber(ARGV[3 * i - 1])
            local start = math.max(tats[key], now)
            local room = now + tonumber(ARGV[3 * i]) - start
            if room >= 0 then
              tats[key] = start + math.min(times, math.floor(room / interval) + 1) * interval
              written[key] = i
            end
          else
            for _ = 1, times do
              local allowed = true
              for j = 0, count - 1 do
                local high, low = string.byte(stages, first + 2 * j, first + 2 * j + 1)
                local i = high * 256 + low
                if math.max(tats[KEYS[i]], now) - now > tonumber(ARGV[3 * i]) then allowed = false end
              end
              if allowed then
                for j = 0, count - 1 do
                  local high, low = string.byte(stages, first + 2 * j, first + 2 * j + 1)
                  local i = high * 256 + low
                  local key = KEYS[i]
                  tats[key] = math.max(tats[key], now) + tonumber(ARGV[3 * i - 1])
                  written[key] = i
                end
              end
            end
          end
          at = first + 2 * count
        end
        for key, i in pairs(written) do
          redis.call('SET', key, string.format('%.0f', tats[key]), 'PX', ARGV[3 * i + 1])
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
    static let microsPerMilli: Int64 = 1000
}
