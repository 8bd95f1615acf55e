/// The recursive-descent reader behind `JSONReader`. It walks the bytes once; strings without
/// escapes are decoded straight from the input, escaped ones go through one reused scratch buffer.
struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    let maxDepth: Int
    let rejectDuplicateKeys: Bool
    var index = 0
    var depth = 0
    /// Decoded bytes of the string being read when it contains escapes.
    var scratch: [UInt8] = []

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int, rejectDuplicateKeys: Bool) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.rejectDuplicateKeys = rejectDuplicateKeys
    }

    // MARK: - Document

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected data after the JSON value") }
        return value
    }

    mutating func parseValue() throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected character, expected a value")
        }
    }

    // MARK: - Containers

    mutating func parseObject() throws(JSONError) -> JSONObject {
        var members: [(key: String, value: JSONValue)] = []
        var seenKeys: Set<String>? = nil
        try walkObject { (parser: inout JSONParser, key, keyOffset) throws(JSONError) in
            let name = parser.string(key)
            if parser.rejectDuplicateKeys {
                try parser.checkUnique(name, among: members, seenKeys: &seenKeys, offset: keyOffset)
            }
            members.append((key: name, value: try parser.parseValue()))
        }
        return JSONObject(members)
    }

    mutating func parseArray() throws(JSONError) -> [JSONValue] {
        var elements: [JSONValue] = []
        try walkArray { (parser: inout JSONParser) throws(JSONError) in elements.append(try parser.parseValue()) }
        return elements
    }

    /// The walk over an object's members while building (skimming has its own loop): `member`
    /// gets each key (scanned: `string(_:)` decodes it) and must read the value after the colon.
    mutating func walkObject(_ member: (inout JSONParser, _ key: ScannedString, _ keyOffset: Int) throws(JSONError) -> Void)
        throws(JSONError) {
        try enterContainer()
        index += 1  // {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a string key")
            }
            let keyOffset = index
            let key = try scanString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "expected ':' after an object key")
            skipWhitespace()
            try member(&self, key, keyOffset)
            skipWhitespace()
            guard index < bytes.count else { throw failure("unterminated object") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return
            default:
                throw failure("expected ',' or '}' in an object")
            }
        }
    }

    /// The walk over an array's elements while building; `element` reads each value.
    mutating func walkArray(_ element: (inout JSONParser) throws(JSONError) -> Void) throws(JSONError) {
        try enterContainer()
        index += 1  // [
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            try element(&self)
            skipWhitespace()
            guard index < bytes.count else { throw failure("unterminated array") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return
            default:
                throw failure("expected ',' or ']' in an array")
            }
        }
    }

    mutating func enterContainer() throws(JSONError) {
        depth += 1
        guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth) levels") }
    }

    /// Small objects are checked by a scan; a set is built only once an object grows large, so a
    /// hostile document with many keys stays linear.
    func checkUnique(_ key: String, among members: [(key: String, value: JSONValue)],
                     seenKeys: inout Set<String>?, offset: Int) throws(JSONError) {
        let scanLimit = 16
        if seenKeys == nil, members.count >= scanLimit {
            seenKeys = Set(members.map(\.key))
        }
        let isDuplicate = seenKeys != nil
            ? seenKeys?.insert(key).inserted == false
            : members.contains { $0.key == key }
        if isDuplicate {
            throw JSONError(message: JSONError.duplicateKeyMessage, offset: offset)
        }
    }

    // MARK: - Numbers

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as written.
    mutating func parseNumber() throws(JSONError) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[try scanNumber()]), as: UTF8.self)
    }

    /// Steps over a number, checking its grammar; the span it covers.
    mutating func scanNumber() throws(JSONError) -> Range<Int> {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw failure("leading zeros are not allowed") }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("expected a digit in the exponent") }
            skipDigits()
        }
        return start..<index
    }

    mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: - Tokens

    // Inlined: called between every two tokens, and usually there is no whitespace to skip.
    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8, _ message: @autoclosure () -> String) throws(JSONError) {
        guard index < bytes.count, bytes[index] == byte else { throw failure(message()) }
        index += 1
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw failure("invalid literal") }
        let pointer = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] {
            throw JSONError(message: "invalid literal", offset: start)
        }
        index += count
    }

    func failure(_ message: String) -> JSONError {
        JSONError(message: message, offset: index)
    }
}
