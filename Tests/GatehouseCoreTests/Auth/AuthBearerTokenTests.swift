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
}
