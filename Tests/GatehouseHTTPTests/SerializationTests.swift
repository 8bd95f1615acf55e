import Testing
@testable import GatehouseHTTP

@Suite("Serialization helpers")
struct SerializationTests {
    @Test(arguments: [
        (0, "0"), (7, "7"), (10, "10"), (413, "413"), (1_234_567_890, "1234567890"), (-5, "-5"),
        (Int.max, "9223372036854775807"), (Int.min, "-9223372036854775808"),
    ])
    func appendDecimal(_ value: Int, _ expected: String) {
        var out = bytes("x")
        out.append(decimal: value)
        #expect(out == bytes("x" + expected))
    }

    @Test(arguments: [
        (0, "0"), (1, "1"), (0xF, "f"), (0x10, "10"), (0x1A, "1a"), (0xABCDEF, "abcdef"),
        (Int.max, "7fffffffffffffff"),
    ])
    func appendHex(_ value: Int, _ expected: String) {
        var out: [UInt8] = []
        out.append(hex: value)
        #expect(out == bytes(expected))
    }

    @Test func appendASCII() {
        var out: [UInt8] = []
        out.append(ascii: "Content-Length: ")
        out.append(decimal: 42)
        out.append(ascii: "\r\n")
        #expect(out == bytes("Content-Length: 42\r\n"))
    }

    @Test(arguments: [
        (200, "OK"), (204, "No Content"), (400, "Bad Request"), (401, "Unauthorized"), (404, "Not Found"),
        (413, "Content Too Large"), (414, "URI Too Long"), (417, "Expectation Failed"),
        (431, "Request Header Fields Too Large"), (502, "Bad Gateway"), (504, "Gateway Timeout"), (299, ""),
    ])
    func reasonPhrase(_ code: Int, _ expected: String) {
        #expect(HTTPStatus.reasonPhrase(code) == expected)
    }

    @Test func statusLine() {
        var out: [UInt8] = []
        HTTPStatus.appendStatusLine(431, to: &out)
        #expect(out == bytes("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        out.removeAll()
        HTTPStatus.appendStatusLine(299, to: &out)
        #expect(out == bytes("HTTP/1.1 299 \r\n"))
    }
}

@Suite("Header names")
struct HeaderNameTests {
    @Test(arguments: [
        ("content-length", true), ("Content-Length", true), ("CONTENT-LENGTH", true), ("content-lengt", false),
        ("content-lengthx", false), ("content_length", false), ("", false),
        // Non-letters must not fold: CR (0x0D) | 0x20 would be "-".
        ("content\rlength", false),
    ])
    func caseInsensitiveEquals(_ name: String, _ expected: Bool) {
        let raw = bytes(name)
        #expect(raw.withUnsafeBytes { HeaderNames.asciiCaseInsensitiveEquals($0, HeaderNames.contentLength) } == expected)
        #expect(HeaderNames.asciiCaseInsensitiveEquals(raw[...], HeaderNames.contentLength) == expected)
    }

    /// Words are lowercased as their bytes are, whatever byte stands next to which (the sums
    /// must not carry): every byte value at every position, among letters and high bytes.
    @Test func wordsLowercaseAsTheirBytes() {
        let neighbours: [UInt8] = [0x00, 0x40, 0x41, 0x5A, 0x5B, 0x60, 0x7A, 0x7F, 0x80, 0xC1, 0xDA, 0xFF]
        for position in 0..<8 {
            for byte in UInt8.min...UInt8.max {
                for neighbour in neighbours {
                    var bytes = [UInt8](repeating: neighbour, count: 8)
                    bytes[position] = byte
                    let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                    let lowered = withUnsafeBytes(of: ASCII.lowercased(word: word)) { Array($0) }
                    #expect(lowered == bytes.map(ASCII.lowercased), "\(bytes)")
                }
            }
        }
        let half: [UInt8] = [0x41, 0xC1, 0x5A, 0x7B]
        let lowered = withUnsafeBytes(of: ASCII.lowercased(word: half.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })) { Array($0) }
        #expect(lowered == half.map(ASCII.lowercased))
    }

    /// Names of every length a literal has (word, half word and byte steps, the overlapping
    /// last word) against a byte-by-byte comparison, with one byte changed at each position.
    @Test func prefixComparisonAgreesWithBytes() {
        let literals: [StaticString] = ["", "te", "age", "etag", "allow", "accept", "trailer", "if-match", "x-request",
                                        "connection", "retry-after", "content-type", "authorization", "cache-control",
                                        "content-length", "proxy-connection", "transfer-encoding", "x-forwarded-proto"]
        for literal in literals {
            let text = literal.withUTF8Buffer { Array($0) }
            let upper = text.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
            for candidate in [text, upper, upper + [0x41, 0x42]] {
                #expect(candidate.withUnsafeBytes { HeaderNames.asciiCaseInsensitiveHasPrefix($0, literal) })
                #expect(candidate.withUnsafeBytes { HeaderNames.asciiCaseInsensitiveEquals($0, literal) }
                        == (candidate.count == text.count))
                for position in candidate.indices.prefix(text.count) {
                    for changed: UInt8 in [candidate[position] ^ 0x01, 0x0D, candidate[position] | 0x80] {
                        var wrong = candidate
                        wrong[position] = changed
                        let expected = zip(wrong, text).allSatisfy { ASCII.lowercased($0) == $1 }
                        #expect(wrong.withUnsafeBytes { HeaderNames.asciiCaseInsensitiveHasPrefix($0, literal) } == expected,
                                "\(literal) vs \(wrong)")
                    }
                }
            }
            #expect(!Array(text.dropLast()).withUnsafeBytes { HeaderNames.asciiCaseInsensitiveHasPrefix($0, literal) }
                    || text.isEmpty)
        }
    }

    @Test func byteStringsCompareCaseInsensitively() {
        let lhs = bytes("X-Trace-ID")
        let rhs = bytes("x-trace-id")
        let other = bytes("x-trace-ie")
        lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { #expect(HeaderNames.asciiCaseInsensitiveEquals(left, $0)) }
            other.withUnsafeBytes { #expect(!HeaderNames.asciiCaseInsensitiveEquals(left, $0)) }
        }
    }

    @Test(arguments: [
        ("Connection", true), ("keep-alive", true), ("Keep-Alive", true), ("Proxy-Connection", true),
        ("Proxy-Authorization", true), ("proxy-authenticate", true), ("Proxy-X", true), ("TE", true),
        ("te", true), ("Trailer", true), ("Transfer-Encoding", true), ("upgrade", true),
        ("Host", false), ("Content-Length", false), ("Authorization", false), ("Trailers", false),
        ("Proxy", false), ("X-Proxy-Id", false), ("Tea", false), ("Upgrade-Insecure-Requests", false),
    ])
    func hopByHop(_ name: String, _ expected: Bool) {
        #expect(HopByHop.isHopByHop(bytes(name)[...]) == expected)
    }
}
