import Testing
@testable import GatehouseCore

/// Paths another hop could read differently are refused, never normalized.
struct PathValidatorTests {
    static let accepted = [
        "/", "/graphql", "/graphql/noauth", "/content/", "/content/a/b.json", "/a%20b", "/a;b=c", "/x.y",
        "/..a", "/a..", "/.well-known/x", "/a/...", "/%41", "/graphql/execute.json/wknd/q;slug=a",
    ]

    static let refused = [
        "", "graphql", "/graphql/../x", "/graphql/..", "/./graphql", "/graphql/.", "//graphql", "/graphql//x",
        "/graphql\\x", "/graphql%2fx", "/graphql%2Fx", "/graphql%5cx", "/graphql/%2e%2e/x", "/graphql/%2E",
        "/a%00", "/a%0d%0a", "/a%", "/a%4", "/a%zz", "/a b", "/a\u{7f}", "/é", "/a#b", "/a\tb",
    ]

    @Test(arguments: accepted)
    func accepts(_ path: String) {
        #expect(Array(path.utf8).withUnsafeBytes { PathValidator.problem(in: $0) } == nil)
    }

    @Test(arguments: refused)
    func refuses(_ path: String) {
        #expect(Array(path.utf8).withUnsafeBytes { PathValidator.problem(in: $0) } != nil)
    }

    /// Every byte value inside a segment and as a segment of its own: accepted exactly when it
    /// is printable ASCII other than `\`, `#` and `%` (which would start an escape). The
    /// validator's bitmap of plain bytes must agree with this.
    @Test func everyByteValueInASegment() {
        for value in 0...255 {
            let byte = UInt8(value)
            let expected = byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "#")
                && byte != UInt8(ascii: "%")
            let inside = [UInt8(ascii: "/"), UInt8(ascii: "a"), byte, UInt8(ascii: "b")]
            #expect(inside.withUnsafeBytes { PathValidator.problem(in: $0) == nil } == expected, "byte \(value)")
            // Alone in the last segment: ";" is fine there too, "." is a dot segment and "/"
            // makes "//".
            let alone = [UInt8(ascii: "/"), UInt8(ascii: "x"), UInt8(ascii: "/"), byte]
            #expect(alone.withUnsafeBytes { PathValidator.problem(in: $0) == nil } == (expected && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "/")),
                    "byte \(value) alone")
        }
    }
}

/// Path parameters and escaped non-ASCII bytes: what servlet containers and lenient decoders
/// would read as dot segments is refused.
struct PathValidatorParameterTests {
    @Test(arguments: ["/public/..;/graphql", "/a/.;x/b", "/a/..;", "/a/%c0%ae%c0%ae/b", "/%e9", "/a%c3", "/a%c3b%a9"])
    func refuses(_ path: String) {
        #expect(Array(path.utf8).withUnsafeBytes { PathValidator.problem(in: $0) } != nil)
    }

    @Test(arguments: ["/caf%C3%A9", "/a;x/b", "/a/;x", "/a/b;v=1.2", "/%E2%82%AC"])
    func accepts(_ path: String) {
        #expect(Array(path.utf8).withUnsafeBytes { PathValidator.problem(in: $0) } == nil)
    }
}

private func problem(_ path: String) -> String? {
    Array(path.utf8).withUnsafeBytes { PathValidator.problem(in: $0) }
}

/// A scalar written as percent-escaped UTF-8, upper- or lowercase hex.
private func escaped(_ scalar: UInt32, uppercase: Bool = false) -> String {
    String(Unicode.Scalar(scalar)!).utf8
        .map { byte in
            let hex = String(byte, radix: 16)
            return "%" + (uppercase ? hex.uppercased() : hex)
        }
        .joined()
}

/// What public 403-bypass fuzzers send: separators hidden behind an encoded `;`, a second round
/// of percent-decoding, or a Unicode character that folds into one.
struct PathValidatorEncodedSeparatorTests {
    static let refused: [(path: String, why: String)] = [
        ("/pub/..%3b/priv/secret", "The path contains an encoded semicolon."),
        ("/pub/..%3B/priv/secret", "The path contains an encoded semicolon."),
        ("/pub/.%3b/priv", "The path contains an encoded semicolon."),
        ("/pub/x%3bjsessionid=1", "The path contains an encoded semicolon."),
        ("/graphql/execute.json/wknd/q;slug=a%3Bb", "The path contains an encoded semicolon."),
        ("/pub/%252e%252e/priv/secret", "The path contains an encoded percent sign (double encoding)."),
        ("/pub/%25%32%65", "The path contains an encoded percent sign (double encoding)."),
        ("/pub/%252f", "The path contains an encoded percent sign (double encoding)."),
        ("/pub/a%25", "The path contains an encoded percent sign (double encoding)."),
        ("/pub/%ef%bc%8e%ef%bc%8e/priv", "The path contains a character that folds to a dot, slash or backslash."),
        ("/pub/%EF%BC%8F", "The path contains a character that folds to a dot, slash or backslash."),
        ("/pub/%e2%88%95priv", "The path contains a character that folds to a dot, slash or backslash."),
        ("/pub/%e2%80%a5/priv", "The path contains a character that folds to a dot, slash or backslash."),
        ("/pub/%f0%9f%84%80", "The path contains a character that folds to a dot, slash or backslash."),
    ]

    @Test(arguments: refused)
    func refusesWithItsReason(_ row: (path: String, why: String)) {
        #expect(problem(row.path) == row.why)
    }

    /// Every NFKC fold the fixture lists, escaped in lower- and uppercase hex, in a first, a
    /// middle and a last segment.
    @Test(arguments: FoldingSeparatorFixture.nfkc.map(\.scalar))
    func refusesEveryNFKCFold(_ scalar: UInt32) {
        for uppercase in [false, true] {
            let character = escaped(scalar, uppercase: uppercase)
            for path in ["/\(character)/x", "/pub/a\(character)b/x", "/pub/\(character)"] {
                #expect(problem(path) != nil, "\(path)")
            }
        }
    }

    static let lookalikes: [UInt32] = [0x2044, 0x2215, 0x2216, 0x29F8, 0x29F9, 0x3002, 0xFF61]

    /// The static set is exactly the generated NFKC list plus the named lookalikes: nothing
    /// missing, nothing else refused (checked over every scalar above ASCII).
    @Test func foldingSetMatchesTheFixtureOverAllOfUnicode() {
        let expected = Set(FoldingSeparatorFixture.nfkc.map(\.scalar) + Self.lookalikes)
        var mismatches: [UInt32] = []
        for scalar in UInt32(0x80)...0x10FFFF where !(0xD800...0xDFFF).contains(scalar) {
            if FoldingSeparators.contains(scalar) != expected.contains(scalar) { mismatches.append(scalar) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.map { String($0, radix: 16) })")
    }

    @Test func fixtureFoldsAreSeparators() {
        for row in FoldingSeparatorFixture.nfkc {
            #expect(row.folded.contains { $0 == "." || $0 == "/" || $0 == "\\" }, "\(row.scalar)")
        }
    }

    @Test(arguments: [
        "/%c2", "/%e2%88", "/%e2%88x", "/%80", "/%bf%bf", "/%c1%bf", "/%e0%9f%bf", "/%ed%a0%80",
        "/%f0%8f%bf%bf", "/%f4%90%80%80", "/%f5%80%80%80", "/%ff", "/%e2%88%95%", "/%e2%88%9",
    ])
    func refusesMalformedEscapedUTF8(_ path: String) {
        #expect(problem(path) != nil)
    }

    @Test(arguments: [
        "/a%20b", "/caf%c3%a9", "/caf%C3%A9", "/pub/x;jsessionid=abc", "/pub/x;a=b;c=d/y", "/%e2%82%ac",
        "/%f0%9f%98%80", "/%ef%bf%bd", "/%e2%80%a3", "/%e2%88%94", "/%c2%b7", "/pub/%41%42",
    ])
    func acceptsLegitimateEscapes(_ path: String) {
        #expect(problem(path) == nil)
    }
}
