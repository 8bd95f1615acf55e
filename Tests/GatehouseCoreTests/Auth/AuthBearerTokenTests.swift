import Testing
@testable import GatehouseCore

@Suite("BearerToken")
struct AuthBearerTokenTests {
    @Test(arguments: [
        ("Bearer abc", "abc"),
        ("bearer abc", "abc"),
        ("BEARER abc", "abc"),
        ("bEaReR abc", "abc"),
        ("Bearer eyJ.eyJ.sig", "eyJ.eyJ.sig"),
        ("Bearer a-b.c_d~e+f/g", "a-b.c_d~e+f/g"),
        ("Bearer abc==", "abc=="),
    ] as [(String, String)])
    func extractsToken(value: String, token: String) throws {
        let bytes = Array(value.utf8)
        let range = try #require(BearerToken.extract(from: bytes))
        #expect(String(decoding: bytes[range], as: UTF8.self) == token)
    }

    @Test(arguments: [
        "", "Bearer", "Bearer ", "Bearer  abc", "Bearer\tabc", "Bearerabc", "Bearerx abc",
        "Basic dXNlcjpwYXNz", "Token abc", "Bearer abc def", "Bearer abc ", " Bearer abc",
        "Bearer abc\r\n", "Bearer =abc", "Bearer a=b", "Bearer ab\"c", "Bearer abc,def", "Bearer é",
        "Bearer !abc", "Bdarer abc",
    ])
    func refusesValue(value: String) {
        #expect(BearerToken.extract(from: Array(value.utf8)) == nil)
    }

    /// The token's characters are checked four at a time, then one by one: a bad byte is found
    /// wherever it falls, in tokens of every length around those steps.
    @Test func aBadByteAnywhereInATokenOfAnyLengthIsRefused() {
        for length in 1...40 {
            let token = (0..<length).map { index in Array("abcXYZ019-._~+/".utf8)[index % 15] }
            let valid = Array("Bearer ".utf8) + token
            #expect(BearerToken.extract(from: valid) == 7..<valid.count, "length \(length)")
            #expect(BearerToken.extract(from: valid + Array("==".utf8)) == 7..<valid.count + 2, "length \(length)")
            for position in 0..<length {
                for bad in [UInt8(ascii: "="), UInt8(ascii: " "), UInt8(ascii: ","), 0x00, 0x7F, 0xC3] {
                    var bytes = valid
                    bytes[7 + position] = bad
                    let padded = bad == UInt8(ascii: "=") && position == length - 1 && length > 1
                    #expect((BearerToken.extract(from: bytes) != nil) == padded, "length \(length), \(bad) at \(position)")
                }
            }
        }
    }
}
