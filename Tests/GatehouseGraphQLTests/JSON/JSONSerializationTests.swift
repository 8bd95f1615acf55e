import Testing
@testable import GatehouseGraphQL

@Suite("JSON serialization")
struct JSONSerializationTests {
    static let roundTrips: [String] = [
        "null",
        "true",
        "-12.50E+03",
        "123456789012345678901234567890.000000000000000001",
        #"{"b":1,"a":[true,false,null,{}],"c":"x"}"#,
        #""quote \" backslash \\ newline \n tab \t cr \r bs \b ff \f nul \u0000 us \u001f""#,
        "\"héllo 😀 中\"",
        "[[],[[]],{\"\":\"\"}]",
    ]

    @Test(arguments: roundTrips)
    func compactDocumentsRoundTripByteForByte(text: String) throws {
        let value = try JSONReader.parse(text)
        #expect(value.serializedString == text)
        #expect(try JSONReader.parse(value.serializedBytes) == value)
    }

    @Test func whitespaceIsDroppedAndOrderKept() throws {
        let value = try JSONReader.parse(" { \"z\" : 1 ,\n \"a\" : [ 2 , 3 ] } ")
        #expect(value.serializedString == #"{"z":1,"a":[2,3]}"#)
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        ("a\"b", #""a\"b""#),
        ("a\\b", #""a\\b""#),
        ("line\nbreak\r\n", #""line\nbreak\r\n""#),
        ("\u{01}\u{1F}\u{7F}", "\"\\u0001\\u001f\u{7F}\""),
        ("/", #""/""#),
        ("é😀", "\"é😀\""),
    ])
    func appendQuotedEscapesPerRFC8259(input: String, expected: String) {
        var output: [UInt8] = []
        JSONValue.appendQuoted(input, to: &output)
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }

    @Test func builtValuesSerialize() {
        var object: JSONObject = ["sub": .string("alice"), "exp": .number("1700000000")]
        object["admin"] = .bool(true)
        object["exp"] = .number("1700000600")
        #expect(JSONValue.object(object).serializedString == #"{"sub":"alice","exp":1700000600,"admin":true}"#)
        object["sub"] = nil
        #expect(JSONValue.object(object).serializedString == #"{"exp":1700000600,"admin":true}"#)
    }

    @Test func objectEqualityDependsOnOrder() {
        let first: JSONObject = ["a": .null, "b": .null]
        let second: JSONObject = ["b": .null, "a": .null]
        #expect(first != second)
        #expect(first == ["a": .null, "b": .null])
    }
}
