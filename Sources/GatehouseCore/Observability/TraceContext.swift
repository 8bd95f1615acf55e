import GatehouseHTTP

/// A W3C Trace Context `traceparent` (version 00): the trace a request belongs to, the span that
/// sent it, and the trace flags. The gateway keeps a valid incoming one, makes one otherwise, sends
/// it upstream and logs its trace id (README, "Observability").
struct TraceContext: Equatable {
    let traceIDHigh: UInt64
    let traceIDLow: UInt64
    let parentID: UInt64
    let flags: UInt8

    /// `00-` + 32 hex + `-` + 16 hex + `-` + 2 hex (W3C Trace Context, "traceparent Header").
    static let headerLength = 55
    static let traceIDHexLength = 32
    /// The `sampled` trace flag: a trace the gateway starts is recorded downstream.
    static let sampled: UInt8 = 0x01

    // Field positions in the value; each field is preceded by a `-`.
    private static let traceIDOffset = 3
    private static let parentIDOffset = 36
    private static let flagsOffset = 53
    /// Hex digits of one 64-bit word, and of the one-byte flags.
    private static let wordDigits = 16
    private static let flagsDigits = 2

    // MARK: - Parsing

    /// The context in a `traceparent` value; nil unless it is exactly the version 00 format in
    /// lowercase hex with non-zero trace and parent ids. Other versions are not understood, so
    /// they are replaced rather than forwarded with a version the gateway did not check.
    static func parse(_ value: UnsafeRawBufferPointer) -> TraceContext? {
        guard value.count == headerLength, value[0] == UInt8(ascii: "0"), value[1] == UInt8(ascii: "0"),
              value[traceIDOffset - 1] == UInt8(ascii: "-"), value[parentIDOffset - 1] == UInt8(ascii: "-"),
              value[flagsOffset - 1] == UInt8(ascii: "-"),
              let high = hexWord(value, at: traceIDOffset, digits: Self.wordDigits),
              let low = hexWord(value, at: traceIDOffset + Self.wordDigits, digits: Self.wordDigits),
              let parent = hexWord(value, at: parentIDOffset, digits: Self.wordDigits),
              let flags = hexWord(value, at: flagsOffset, digits: Self.flagsDigits) else { return nil }
        guard high | low != 0, parent != 0 else { return nil }
        return TraceContext(traceIDHigh: high, traceIDLow: low, parentID: parent, flags: UInt8(flags))
    }

    /// The request's one valid `traceparent`; nil when it has none, several, or an invalid one.
    static func incoming(in head: RequestHead) -> TraceContext? {
        guard let range = head.headerValue(named: HeaderNames.traceparent),
              head.headerCount(named: HeaderNames.traceparent) == 1 else {
            return nil
        }
        return head.bytes.withUnsafeBytes { parse(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// Lowercase hex only, as the format requires.
    private static func hexWord(_ value: UnsafeRawBufferPointer, at offset: Int, digits: Int) -> UInt64? {
        var word: UInt64 = 0
        for index in offset..<offset + digits {
            let byte = value[index]
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            word = word << 4 | UInt64(nibble)
        }
        return word
    }

    // MARK: - Making

    /// A new trace: random 16-byte trace id and 8-byte span id (never all zero), sampled.
    static func make<Generator: RandomNumberGenerator>(using generator: inout Generator) -> TraceContext {
        var high: UInt64, low: UInt64, parent: UInt64
        repeat {
            high = generator.next()
            low = generator.next()
            parent = generator.next()
        } while high | low == 0 || parent == 0
        return TraceContext(traceIDHigh: high, traceIDLow: low, parentID: parent, flags: sampled)
    }

    // MARK: - Writing

    /// Calls `body` with the 55-byte header value, built on the stack.
    func withHeaderValue<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.headerLength) { buffer in
            buffer[0] = UInt8(ascii: "0")
            buffer[1] = UInt8(ascii: "0")
            buffer[Self.traceIDOffset - 1] = UInt8(ascii: "-")
            buffer[Self.parentIDOffset - 1] = UInt8(ascii: "-")
            buffer[Self.flagsOffset - 1] = UInt8(ascii: "-")
            let start = UnsafeMutableRawPointer(buffer.baseAddress!)
            LowercaseHex.write(traceIDHigh, to: start + Self.traceIDOffset)
            LowercaseHex.write(traceIDLow, to: start + Self.traceIDOffset + Self.wordDigits)
            LowercaseHex.write(parentID, to: start + Self.parentIDOffset)
            Self.writeHex(UInt64(flags), digits: Self.flagsDigits, into: buffer, at: Self.flagsOffset)
            return body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// Calls `body` with the trace id as 32 lowercase hex digits.
    func withTraceIDHex<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withHeaderValue { value in
            body(UnsafeRawBufferPointer(rebasing: value[Self.traceIDOffset..<Self.traceIDOffset + Self.traceIDHexLength]))
        }
    }

    var headerValue: String { withHeaderValue { String(decoding: $0, as: UTF8.self) } }
    var traceIDHex: String { withTraceIDHex { String(decoding: $0, as: UTF8.self) } }

    private static func writeHex(_ word: UInt64, digits: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let table: StaticString = "0123456789abcdef"
        let hex = table.utf8Start
        for index in 0..<digits {
            buffer[offset + index] = hex[Int((word >> UInt64(4 * (digits - 1 - index))) & 0xF)]
        }
    }
}
