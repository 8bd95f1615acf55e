import Testing
@testable import GatehouseGraphQL

@Suite("JSONReader")
struct JSONReaderTests {
    // MARK: - Valid documents

    static let validDocuments: [(String, JSONValue)] = [
        ("null", .null),
        ("true", .bool(true)),
        (" \t\r\nfalse \n", .bool(false)),
        ("0", .number("0")),
        ("-0", .number("-0")),
        ("1.50e3", .number("1.50e3")),
        ("-12.5E-7", .number("-12.5E-7")),
        ("1e+2", .number("1e+2")),
        ("123456789012345678901234567890123456789", .number("123456789012345678901234567890123456789")),
        ("1e999999", .number("1e999999")),
        (#""""#, .string("")),
        (#""plain""#, .string("plain")),
        (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{08}\u{0C}\n\r\t")),
        (#""\u0041\u00e9\u4e2D""#, .string("Aé中")),
        (#""\ud83d\ude00""#, .string("😀")),
        (#""\u0000""#, .string("\u{0}")),
        ("\"héllo 😀\"", .string("héllo 😀")),
        ("[]", .array([])),
        ("[ 1 , [ ] , { } ]", .array([.number("1"), .array([]), .object(JSONObject())])),
        (#"{"a":1,"b":[true,null],"c":{"d":"e"}}"#,
         .object(["a": .number("1"), "b": .array([.bool(true), .null]), "c": .object(["d": .string("e")])])),
        (#"{"a":1,"a":2}"#, .object(JSONObject([(key: "a", value: .number("1")), (key: "a", value: .number("2"))]))),
    ]

    @Test(arguments: validDocuments)
    func parsesValidDocument(text: String, expected: JSONValue) throws {
        #expect(try JSONReader.parse(text) == expected)
    }

    // MARK: - Invalid documents

    static let invalidDocuments: [(name: String, bytes: [UInt8])] = [
        ("empty", []),
        ("only whitespace", Array("  ".utf8)),
        ("trailing comma in array", Array("[1,]".utf8)),
        ("trailing comma in object", Array(#"{"a":1,}"#.utf8)),
        ("line comment", Array("[1] // c".utf8)),
        ("block comment", Array("/* c */ 1".utf8)),
        ("leading zero", Array("01".utf8)),
        ("negative leading zero", Array("-01".utf8)),
        ("leading plus", Array("+1".utf8)),
        ("bare dot", Array(".5".utf8)),
        ("trailing dot", Array("1.".utf8)),
        ("empty exponent", Array("1e".utf8)),
        ("signed empty exponent", Array("1e+".utf8)),
        ("NaN", Array("NaN".utf8)),
        ("Infinity", Array("-Infinity".utf8)),
        ("hex number", Array("0x10".utf8)),
        ("single quotes", Array("'a'".utf8)),
        ("unquoted key", Array("{a:1}".utf8)),
        ("missing colon", Array(#"{"a" 1}"#.utf8)),
        ("missing comma", Array("[1 2]".utf8)),
        ("unterminated array", Array("[1".utf8)),
        ("unterminated object", Array(#"{"a":1"#.utf8)),
        ("unterminated string", Array(#""abc"#.utf8)),
        ("trailing garbage", Array("{} x".utf8)),
        ("two values", Array("1 2".utf8)),
        ("raw newline in string", Array("\"a\nb\"".utf8)),
        ("raw tab in string", Array("\"a\tb\"".utf8)),
        ("raw NUL in string", [0x22, 0x00, 0x22]),
        ("invalid escape", Array(#""\x41""#.utf8)),
        ("short unicode escape", Array(#""\u12""#.utf8)),
        ("non-hex unicode escape", Array(#""\u12G4""#.utf8)),
        ("lone high surrogate", Array(#""\ud83d""#.utf8)),
        ("high surrogate then text", Array(#""\ud83dabcdef""#.utf8)),
        ("high surrogate then non-low", Array(#""\ud83d\u0041""#.utf8)),
        ("lone low surrogate", Array(#""\ude00""#.utf8)),
        ("invalid UTF-8 continuation", [0x22, 0xC3, 0x28, 0x22]),
        ("overlong UTF-8", [0x22, 0xC0, 0xAF, 0x22]),
        ("overlong 3-byte UTF-8", [0x22, 0xE0, 0x80, 0xAF, 0x22]),
        ("UTF-8 encoded surrogate", [0x22, 0xED, 0xA0, 0x80, 0x22]),
        ("UTF-8 above U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22]),
        ("truncated UTF-8", [0x22, 0xE2, 0x82]),
        ("stray continuation byte", [0x22, 0x80, 0x22]),
        ("byte order mark", [0xEF, 0xBB, 0xBF] + Array("1".utf8)),
        ("form feed whitespace", Array("\u{0C}1".utf8)),
        ("non-breaking space", Array("\u{A0}1".utf8)),
        ("capitalised literal", Array("True".utf8)),
        ("truncated literal", Array("nul".utf8)),
        ("nesting bomb", Array(String(repeating: "[", count: 100_000).utf8)),
        ("65 levels", Array((String(repeating: "[", count: 65) + String(repeating: "]", count: 65)).utf8)),
    ]

    @Test(arguments: invalidDocuments)
    func refusesInvalidDocument(name: String, bytes: [UInt8]) {
        #expect(throws: JSONError.self, "\(name)") { try JSONReader.parse(bytes) }
    }

    // MARK: - Limits and options

    @Test func acceptsNestingUpToMaxDepth() throws {
        let document = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try JSONReader.parse(document)
        #expect(throws: JSONError.self) { try JSONReader.parse(document, maxDepth: 63) }
    }

    @Test(arguments: [
        #"{"alg":"HS256","alg":"none"}"#,
        #"{"a":{"b":1,"b":1}}"#,
        #"[{"x":1,"\u0078":2}]"#,
    ])
    func rejectsDuplicateKeysWhenAsked(text: String) {
        #expect(throws: JSONError.self) { try JSONReader.parse(text, rejectDuplicateKeys: true) }
    }

    @Test func rejectsDuplicateKeysInLargeObjects() throws {
        let members = (0..<40).map { "\"k\($0)\":\($0)" }
        let unique = "{" + members.joined(separator: ",") + "}"
        #expect(try JSONReader.parse(unique, rejectDuplicateKeys: true).objectValue?.count == 40)
        let duplicated = "{" + (members + ["\"k7\":0"]).joined(separator: ",") + "}"
        #expect(throws: JSONError.self) { try JSONReader.parse(duplicated, rejectDuplicateKeys: true) }
    }

    @Test func lookupSeesTheLastDuplicate() throws {
        let value = try JSONReader.parse(#"{"a":1,"a":2}"#)
        #expect(value["a"] == .number("2"))
    }

    @Test func reportsOffsetOfTheProblem() {
        do {
            _ = try JSONReader.parse("[1, 2, x]")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 7)
        }
    }

    @Test func parsesFromRawBuffer() throws {
        let bytes = Array(#"{"sub":"alice","exp":1700000000}"#.utf8)
        let value = try bytes.withUnsafeBytes { buffer throws(JSONError) in try JSONReader.parse(buffer) }
        #expect(value["sub"]?.stringValue == "alice")
        #expect(value["exp"]?.int64Value == 1_700_000_000)
        #expect(value["exp"]?.doubleValue == 1_700_000_000)
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        #expect(throws: JSONError.self) { try JSONReader.parse(empty) }
    }

    // MARK: - Accessors

    @Test func accessorsMatchTheirCase() throws {
        let value = try JSONReader.parse(#"{"s":"x","b":false,"n":null,"a":[1],"o":{}}"#)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["b"]?.boolValue == false)
        #expect(value["n"]?.isNull == true)
        #expect(value["a"]?.arrayValue == [.number("1")])
        #expect(value["o"]?.objectValue == JSONObject())
        #expect(value["s"]?.boolValue == nil)
        #expect(value["missing"] == nil)
        #expect(value.arrayValue == nil)
    }
}
