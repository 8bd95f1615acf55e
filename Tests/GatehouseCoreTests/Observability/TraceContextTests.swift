import Testing
@testable import GatehouseCore

/// W3C `traceparent`, version 00: kept when valid, replaced otherwise.
struct TraceContextTests {
    static let valid = [
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
        "00-00000000000000000000000000000001-0000000000000001-ff",
        "00-ffffffffffffffffffffffffffffffff-ffffffffffffffff-09",
    ]

    static let invalid: [(value: String, why: String)] = [
        ("", "empty"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", "no flags"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-", "trailing dash"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-011", "three flag digits"),
        ("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "uppercase trace id"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00F067AA0BA902B7-01", "uppercase parent id"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0A", "uppercase flags"),
        ("00-00000000000000000000000000000000-00f067aa0ba902b7-01", "all-zero trace id"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "all-zero parent id"),
        ("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "another version"),
        ("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "the forbidden version ff"),
        ("0-04bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "dash in the wrong place"),
        ("00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01", "underscores"),
        ("00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01", "non-hex in trace id"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902bz-01", "non-hex in parent id"),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g", "non-hex in flags"),
        ("00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01", "short trace id"),
        (" 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0", "leading space"),
    ]

    static func parse(_ value: String) -> TraceContext? {
        Array(value.utf8).withUnsafeBytes { TraceContext.parse($0) }
    }

    @Test(arguments: valid)
    func validValuesRoundTrip(_ value: String) throws {
        let context = try #require(Self.parse(value))
        #expect(context.headerValue == value)
        #expect(context.traceIDHex == String(value.dropFirst(3).prefix(32)))
    }

    @Test(arguments: invalid)
    func invalidValuesAreRefused(_ row: (value: String, why: String)) {
        #expect(Self.parse(row.value) == nil, "\(row.why)")
    }

    @Test func fieldsAreReadAsHex() throws {
        let context = try #require(Self.parse("00-0123456789abcdef0011223344556677-8899aabbccddeeff-01"))
        #expect(context.traceIDHigh == 0x0123_4567_89AB_CDEF)
        #expect(context.traceIDLow == 0x0011_2233_4455_6677)
        #expect(context.parentID == 0x8899_AABB_CCDD_EEFF)
        #expect(context.flags == TraceContext.sampled)
    }

    @Test func madeContextsAreValidSampledAndDistinct() throws {
        var generator = RequestIDGenerator()
        var seen = Set<String>()
        for _ in 0..<100 {
            let made = TraceContext.make(using: &generator)
            let value = made.headerValue
            #expect(value.utf8.count == TraceContext.headerLength)
            #expect(Self.parse(value) == made)
            #expect(made.flags == TraceContext.sampled)
            seen.insert(made.traceIDHex)
        }
        #expect(seen.count == 100)
    }

    /// A generator that returns zeros first: the made ids are never the invalid all-zero ones.
    @Test func madeContextsSkipZeroIDs() {
        var generator = ScriptedGenerator(words: [0, 0, 5, 7, 9, 0, 1, 2, 3])
        let made = TraceContext.make(using: &generator)
        #expect(made.traceIDHigh | made.traceIDLow != 0 && made.parentID != 0)
        #expect(Self.parse(made.headerValue) == made)
    }
}

private struct ScriptedGenerator: RandomNumberGenerator {
    var words: [UInt64]
    mutating func next() -> UInt64 { words.isEmpty ? 1 : words.removeFirst() }
}
