import Testing
@testable import GatehouseGraphQL

/// `objectHasTopLevelKey` checks what the full parse checks, without building the document: for
/// every row it agrees with parsing and looking the key up.
@Suite("JSON skimming: a top-level key without building the document")
struct JSONSkimmingTests {
    static let documents: [String] = [
        #"{"data":{"movies":[]}}"#,
        #"{"data":null,"errors":[{"message":"x"}]}"#,
        #"{"errors":[]}"#,
        #"{"data":{"errors":1}}"#,
        #"{"\u0065rrors":[]}"#,
        #"{"err\"ors":1}"#,
        #"{"errorsX":1,"Errors":2}"#,
        #"{}"#,
        #"  { "a" : [1, -2.5e+3, true, false, null, "s\n\u00e9\ud83d\ude00"] }  "#,
        #"[{"errors":1}]"#,
        #""errors""#,
        #"12"#,
        #"{"a":1,}"#,
        #"{"a":01}"#,
        #"{"a":"\ud800"}"#,
        "{\"a\":\"tab\tinside\"}",
        #"{"a":1} x"#,
        #"{"a":[1,2}"#,
        #"{"a":tru}"#,
        #"{"a":1.}"#,
        "{\"a\":\"\u{FF}\"}",
        #""#,
        #"{"a":{"b":{"c":{}}}}"#,
    ]

    @Test(arguments: documents)
    func agreesWithTheFullParse(_ text: String) {
        let bytes = Array(text.utf8)
        let expected: Bool? = (try? JSONReader.parse(bytes))?.objectValue.map { $0["errors"] != nil }
        #expect(JSONReader.objectHasTopLevelKey(bytes, "errors") == expected, "\(text)")
    }

    @Test func invalidUTF8IsRefusedLikeTheParser() {
        let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        let expected: Bool? = (try? JSONReader.parse(bytes))?.objectValue.map { $0["errors"] != nil }
        #expect(JSONReader.objectHasTopLevelKey(bytes, "errors") == expected)
    }

    @Test func depthIsLimitedAsInTheParser() {
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        let bytes = Array(("{\"a\":" + deep + "}").utf8)
        #expect((try? JSONReader.parse(bytes)) == nil)
        #expect(JSONReader.objectHasTopLevelKey(bytes, "errors") == nil)
    }
}
