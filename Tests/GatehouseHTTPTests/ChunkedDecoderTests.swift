import Testing
@testable import GatehouseHTTP

/// One row of the chunked-coding contract.
struct ChunkedCase: Sendable, CustomTestStringConvertible {
    enum Verdict: Sendable, Equatable {
        /// The decoded body; the message ends after `trailingBytes` bytes are left over.
        case body(String, trailingBytes: Int)
        case needMore
        case invalid
    }

    let name: String
    let raw: String
    let verdict: Verdict

    init(_ name: String, _ raw: String, _ verdict: Verdict) {
        self.name = name
        self.raw = raw
        self.verdict = verdict
    }

    var testDescription: String { name }
}

@Suite("Chunked transfer coding (RFC 9112 §7.1)")
struct ChunkedDecoderTests {
    static let cases: [ChunkedCase] = [
        // Sizes and data
        ChunkedCase("one chunk", "5\r\nhello\r\n0\r\n\r\n", .body("hello", trailingBytes: 0)),
        ChunkedCase("several chunks", "5\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\n\r\n", .body("hello world", trailingBytes: 0)),
        ChunkedCase("empty body", "0\r\n\r\n", .body("", trailingBytes: 0)),
        ChunkedCase("uppercase hex", "A\r\n0123456789\r\n0\r\n\r\n", .body("0123456789", trailingBytes: 0)),
        ChunkedCase("lowercase hex", "a\r\n0123456789\r\n0\r\n\r\n", .body("0123456789", trailingBytes: 0)),
        ChunkedCase("leading zeros", "005\r\nhello\r\n000\r\n\r\n", .body("hello", trailingBytes: 0)),
        ChunkedCase("data containing CRLF", "4\r\n\r\n\r\n\r\n0\r\n\r\n", .body("\r\n\r\n", trailingBytes: 0)),
        ChunkedCase("next message after the body", "3\r\nabc\r\n0\r\n\r\nGET / HTTP/1.1\r\n", .body("abc", trailingBytes: 16)),
        ChunkedCase("15 hex digits is the longest size", "00000000000000f\r\n0123456789abcde\r\n0\r\n\r\n", .body("0123456789abcde", trailingBytes: 0)),
        ChunkedCase("16 hex digits", "0000000000000005\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("size overflow", "ffffffffffffffffff\r\n", .invalid),
        ChunkedCase("huge size waits for data", "fffffffffffffff\r\nabc", .needMore),
        ChunkedCase("missing size", "\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("non-hex size", "x\r\n", .invalid),
        ChunkedCase("signed size", "+5\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("negative size", "-5\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("0x prefix", "0x5\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("whitespace before size", " 5\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("whitespace after size", "5 \r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("bare LF after size", "5\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("bare CR after size", "5\rhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("data longer than its size", "5\r\nhelloX\r\n0\r\n\r\n", .invalid),
        ChunkedCase("data shorter than its size", "5\r\nhell\r\n0\r\n\r\n", .invalid),
        ChunkedCase("bare LF after data", "5\r\nhello\n0\r\n\r\n", .invalid),
        ChunkedCase("NUL in size line", "5\u{00}\r\nhello\r\n0\r\n\r\n", .invalid),

        // Extensions
        ChunkedCase("extension name", "5;foo\r\nhello\r\n0\r\n\r\n", .body("hello", trailingBytes: 0)),
        ChunkedCase("extension with token value", "5;foo=bar\r\nhello\r\n0\r\n\r\n", .body("hello", trailingBytes: 0)),
        ChunkedCase("extension with quoted value", "5;foo=\"a b;c\\\"d\"\r\nhello\r\n0\r\n\r\n", .body("hello", trailingBytes: 0)),
        ChunkedCase("several extensions", "5;a=1;b;c=\"x\"\r\nhello\r\n0\r\n\r\n", .body("hello", trailingBytes: 0)),
        ChunkedCase("whitespace around ; and =", "5 ; a = 1 ;b\r\nhello\r\n0\r\n\r\n", .body("hello", trailingBytes: 0)),
        ChunkedCase("extension on the last chunk", "5\r\nhello\r\n0;end=1\r\n\r\n", .body("hello", trailingBytes: 0)),
        ChunkedCase("empty extension name", "5;\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("empty extension value", "5;a=\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("whitespace before CR after extension", "5;a=1 \r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("unterminated quoted value", "5;a=\"x\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("extension name not a token", "5;a@b\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("control byte in quoted value", "5;a=\"\u{01}\"\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("bare LF after extension", "5;a=1\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("extension too long", "5;a=" + String(repeating: "x", count: ChunkedDecoder.maxExtensionBytes) + "\r\nhello\r\n0\r\n\r\n", .invalid),
        ChunkedCase("extension at the length limit", "5;a=" + String(repeating: "x", count: ChunkedDecoder.maxExtensionBytes - 3) + "\r\nhello\r\n0\r\n\r\n", .body("hello", trailingBytes: 0)),

        // Trailers
        ChunkedCase("one trailer field", "5\r\nhello\r\n0\r\nX-Checksum: abc\r\n\r\n", .body("hello", trailingBytes: 0)),
        ChunkedCase("several trailer fields", "0\r\nA: 1\r\nB:\r\nC: x y\t\u{E9}\r\n\r\n", .body("", trailingBytes: 0)),
        ChunkedCase("trailer obs-fold", "0\r\nA: 1\r\n 2\r\n\r\n", .invalid),
        ChunkedCase("trailer whitespace before colon", "0\r\nA : 1\r\n\r\n", .invalid),
        ChunkedCase("trailer without colon", "0\r\nA\r\n\r\n", .invalid),
        ChunkedCase("trailer bare LF", "0\r\nA: 1\n\r\n", .invalid),
        ChunkedCase("trailer NUL", "0\r\nA: \u{00}\r\n\r\n", .invalid),
        ChunkedCase("bare LF ends the body", "0\r\n\n", .invalid),
        ChunkedCase("trailer section too large", "0\r\n" + String(repeating: "X-T: 0123456789abcdef\r\n", count: 400) + "\r\n", .invalid),

        // Partial input
        ChunkedCase("nothing yet", "", .needMore),
        ChunkedCase("inside a size", "1", .needMore),
        ChunkedCase("inside data", "5\r\nhel", .needMore),
        ChunkedCase("before the data CRLF", "5\r\nhello", .needMore),
        ChunkedCase("before the final CRLF", "5\r\nhello\r\n0\r\n", .needMore),
        ChunkedCase("inside a trailer", "0\r\nX-T: 1", .needMore),
    ]

    @Test(arguments: cases)
    func verdict(_ row: ChunkedCase) {
        let input = bytes(row.raw)
        let (outcome, agreed) = decodeChunkedEveryWay(input)
        #expect(agreed, "whole, byte-by-byte and random splits must agree")
        switch (outcome.ending, row.verdict) {
        case (.end(let at), .body(let body, let trailing)):
            #expect(outcome.body == bytes(body))
            #expect(at == input.count - trailing)
        case (.needMore, .needMore):
            break
        case (.invalid(let reason), .invalid):
            #expect(!reason.isEmpty)
        default:
            Issue.record("expected \(row.verdict), got \(outcome)")
        }
    }

    @Test func dataIsReportedInPlaceWithoutCopying() {
        var decoder = ChunkedDecoder()
        let input = bytes("5\r\nhello\r\n3\r\nabc\r\n0\r\n\r\n")
        input.withUnsafeBytes { buffer in
            #expect(decoder.decode(buffer) == .data(3..<8, consumed: 8))
            let rest = UnsafeRawBufferPointer(rebasing: buffer[8...])
            #expect(decoder.decode(rest) == .data(5..<8, consumed: 8))
            let tail = UnsafeRawBufferPointer(rebasing: buffer[16...])
            #expect(decoder.decode(tail) == .end(consumed: 7))
        }
        #expect(decoder.isFinished)
    }

    @Test func dataSplitAcrossBuffersCountsDown() {
        var decoder = ChunkedDecoder()
        bytes("a\r\n01234").withUnsafeBytes { #expect(decoder.decode($0) == .data(3..<8, consumed: 8)) }
        bytes("56789\r\n").withUnsafeBytes { #expect(decoder.decode($0) == .data(0..<5, consumed: 5)) }
        bytes("\r\n").withUnsafeBytes { #expect(decoder.decode($0) == .needMore(consumed: 2)) }
        #expect(!decoder.isFinished)
    }

    @Test func finishedAndFailedDecodersStaySo() {
        var finished = ChunkedDecoder()
        bytes("0\r\n\r\n").withUnsafeBytes { #expect(finished.decode($0) == .end(consumed: 5)) }
        bytes("5\r\nhello").withUnsafeBytes { #expect(finished.decode($0) == .end(consumed: 0)) }
        #expect(finished.isFinished)

        var failed = ChunkedDecoder()
        bytes("z").withUnsafeBytes {
            guard case .invalid = failed.decode($0) else {
                Issue.record("expected a refusal")
                return
            }
        }
        bytes("5\r\nhello").withUnsafeBytes {
            guard case .invalid = failed.decode($0) else {
                Issue.record("a failed decoder must keep refusing")
                return
            }
        }
        #expect(!failed.isFinished)
    }
}
