import Testing
@testable import GatehouseHTTP

/// Which parsed lines read exactly "Name: value\r\n" (and may be copied whole by the head
/// writers): one space after the colon and nothing around the value; any other spacing is
/// rebuilt from the trimmed value.
struct HeaderFieldLineTests {
    @Test(arguments: [
        ("X-A: one", true),
        ("X-A:one", false),
        ("X-A:  one", false),
        ("X-A: one ", false),
        ("X-A:\tone", false),
        ("X-A: ", true),  // an empty value: the line is what rebuilding it would write
        ("X-A:", false),
        ("X-A: a, b", true),
    ] as [(String, Bool)])
    func aLineIsPlainOnlyAsServersWriteIt(_ line: String, _ plain: Bool) throws {
        let result = parseResponseEveryWay(bytes("HTTP/1.1 200 OK\r\n" + line + "\r\nContent-Length: 0\r\n\r\n"))
        guard case .complete(let response, _) = result else {
            Issue.record("expected a complete head, got \(result)")
            return
        }
        let field = try #require(response.headers.first)
        let isPlain = response.bytes.withUnsafeBytes { field.isWrittenPlainly(in: $0) }
        #expect(isPlain == plain)
        if plain {
            #expect(response.string(field.line) == line + "\r\n")
        }
    }
}
