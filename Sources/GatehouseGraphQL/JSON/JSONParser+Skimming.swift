// Checking a document without building it: the same grammar, depth limit and string rules as
// `parseDocument`, but no value, String or dictionary is made. The response cache asks this of
// every response it may store ("a JSON object without top-level errors").

extension JSONParser {
    /// nil when the document is not valid JSON; otherwise whether it is an object and whether
    /// one of its own keys (compared after unescaping) is `key`.
    mutating func skimDocument(topLevelKey key: [UInt8]) throws(JSONError) -> (isObject: Bool, hasKey: Bool) {
        skipWhitespace()
        guard index < bytes.count else { throw failure("unexpected end of input, expected a value") }
        var result = (isObject: false, hasKey: false)
        if bytes[index] == UInt8(ascii: "{") {
            result = (true, try skimObject(lookingFor: key))
        } else {
            try skimValue()
        }
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected data after the JSON value") }
        return result
    }

    mutating func skimValue() throws(JSONError) {
        guard index < bytes.count else { throw failure("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): _ = try skimObject(lookingFor: nil)
        case UInt8(ascii: "["): try skimArray()
        case UInt8(ascii: "\""): _ = try scanString()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try scanNumber()
        default: throw failure("unexpected character, expected a value")
        }
    }

    /// True when `key` (if given) is one of the object's keys.
    mutating func skimObject(lookingFor key: [UInt8]?) throws(JSONError) -> Bool {
        var found = false
        try walkObject { (parser: inout JSONParser, scanned, _) throws(JSONError) in
            if let key, !found { found = parser.isKey(key, scanned) }
            try parser.skimValue()
        }
        return found
    }

    mutating func skimArray() throws(JSONError) {
        try walkArray { (parser: inout JSONParser) throws(JSONError) in try parser.skimValue() }
    }

    private func isKey(_ key: [UInt8], _ scanned: ScannedString) -> Bool {
        if scanned.escaped { return scratch == key }
        return scanned.content.count == key.count && bytes[scanned.content].elementsEqual(key)
    }
}

extension JSONReader {
    /// For a document that must be a JSON object: nil when it is not valid JSON or not an object,
    /// else whether it has the top-level key `key`. Checks what `parse` checks, without building
    /// the document.
    public static func objectHasTopLevelKey(_ bytes: [UInt8], _ key: String, maxDepth: Int = 64) -> Bool? {
        bytes.withUnsafeBytes { objectHasTopLevelKey($0, Array(key.utf8), maxDepth: maxDepth) }
    }

    /// The same over bytes where they lie (a response body still in the upstream's buffer).
    public static func objectHasTopLevelKey(_ bytes: UnsafeRawBufferPointer, _ key: [UInt8],
                                            maxDepth: Int = 64) -> Bool? {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth, rejectDuplicateKeys: false)
        guard let result = try? parser.skimDocument(topLevelKey: key), result.isObject else { return nil }
        return result.hasKey
    }
}
