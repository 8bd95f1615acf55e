import Testing
@testable import GatehouseCore

@Suite("Base64URL")
struct AuthBase64URLTests {
    @Test(arguments: 0..<12)
    func roundTrips(length: Int) throws {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 251) }
        let encoded = String(decoding: Base64URL.encode(bytes), as: UTF8.self)
        #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
        #expect(Base64URL.decode(encoded) == bytes)
    }

    @Test(arguments: [
        ("", []), ("AA", [0]), ("_-8", [0xFF, 0xEF]), ("eyJhbGciOiJIUzI1NiJ9", Array(#"{"alg":"HS256"}"#.utf8)),
    ] as [(String, [UInt8])])
    func decodesKnownValues(text: String, bytes: [UInt8]) {
        #expect(Base64URL.decode(text) == bytes)
    }

    @Test(arguments: ["A", "AA==", "AA=", "+/8", "ab/c", "ab c", "ab\nc", "AB", "AAB", "ABCDE", "é"])
    func refusesNonCanonicalOrForeignText(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}
