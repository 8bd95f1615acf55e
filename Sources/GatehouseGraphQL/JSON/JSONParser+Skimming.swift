// Checking a document without building it: the same grammar, depth limit and string rules as
// `parseDocument`, but no value, String or dictionary is made. The response cache asks this of
// every response it may store ("a JSON object without top-level errors"), so the walk is one
// loop over the bytes with the open containers kept as bits, not a recursion through closures;
// plain-ASCII documents are decided by a tighter loop still (`JSONFastSkim.swift`).

extension JSONParser {
    /// nil when the document is not valid JSON; otherwise whether it is an object and whether
    /// one of its own keys (compared after unescaping) is `key`.
    mutating func skimDocument(topLevelKey key: [UInt8]) throws(JSONError) -> (isObject: Bool, hasKey: Bool) {
        skipWhitespace()
        guard index < bytes.count else { throw failure("unexpected end of input, expected a value") }
        let isObject = bytes[index] == UInt8(ascii: "{")
        var hasKey = false
        var open = OpenContainers()
        value: while true {
            guard index < bytes.count else { throw failure("unexpected end of input, expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                if try enterSkimmedContainer(closedBy: UInt8(ascii: "}")) {
                    open.push(isObject: true)
                    if try skimKey(key, atTopLevel: depth == 1) { hasKey = true }
                    continue value
                }
            case UInt8(ascii: "["):
                if try enterSkimmedContainer(closedBy: UInt8(ascii: "]")) {
                    open.push(isObject: false)
                    continue value
                }
            case UInt8(ascii: "\""): _ = try scanString()
            case UInt8(ascii: "t"): try expectLiteral("true")
            case UInt8(ascii: "f"): try expectLiteral("false")
            case UInt8(ascii: "n"): try expectLiteral("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try scanNumber()
            default: throw failure("unexpected character, expected a value")
            }
            // After a value: close the containers that end here, then read the next member or element.
            while !open.isEmpty {
                let inObject = open.innermostIsObject
                skipWhitespace()
                guard index < bytes.count else { throw failure(inObject ? "unterminated object" : "unterminated array") }
                switch bytes[index] {
                case UInt8(ascii: ","):
                    index += 1
                    skipWhitespace()
                    if inObject, try skimKey(key, atTopLevel: depth == 1) { hasKey = true }
                    continue value
                case inObject ? UInt8(ascii: "}") : UInt8(ascii: "]"):
                    index += 1
                    depth -= 1
                    open.pop()
                default:
                    throw failure(inObject ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array")
                }
            }
            break
        }
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected data after the JSON value") }
        return (isObject, hasKey)
    }

    /// Steps into the container opening at `index`; false when it closes at once (`{}`, `[]`).
    private mutating func enterSkimmedContainer(closedBy close: UInt8) throws(JSONError) -> Bool {
        try enterContainer()
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == close else { return true }
        index += 1
        depth -= 1
        return false
    }

    /// Reads a member's key and its colon, leaving `index` at the value; true when the key is
    /// `key` in the top-level object.
    private mutating func skimKey(_ key: [UInt8], atTopLevel: Bool) throws(JSONError) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a string key") }
        let scanned = try scanString()
        let matches = atTopLevel && isKey(key, scanned)
        skipWhitespace()
        try expect(UInt8(ascii: ":"), "expected ':' after an object key")
        skipWhitespace()
        return matches
    }

    private func isKey(_ key: [UInt8], _ scanned: ScannedString) -> Bool {
        if scanned.escaped { return scratch == key }
        return scanned.content.count == key.count && bytes[scanned.content].elementsEqual(key)
    }
}

/// Whether each open container is an object or an array, innermost last: bits of one word for
/// the usual depths, an array only past them.
private struct OpenContainers {
    private static let bitsInWord = UInt64.bitWidth
    private var word: UInt64 = 0
    private var deeper: [Bool] = []
    private var count = 0

    var isEmpty: Bool { count == 0 }

    var innermostIsObject: Bool {
        count > Self.bitsInWord ? deeper[deeper.count - 1] : (word >> UInt64(count - 1)) & 1 == 1
    }

    mutating func push(isObject: Bool) {
        if count < Self.bitsInWord {
            let bit = UInt64(1) << UInt64(count)
            word = isObject ? word | bit : word & ~bit
        } else {
            deeper.append(isObject)
        }
        count += 1
    }

    mutating func pop() {
        count -= 1
        if count >= Self.bitsInWord { deeper.removeLast() }
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
        if let result = JSONFastSkim.skim(bytes, topLevelKey: key, maxDepth: maxDepth) {
            return result.isObject ? result.hasKey : nil
        }
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth, rejectDuplicateKeys: false)
        guard let result = try? parser.skimDocument(topLevelKey: key), result.isObject else { return nil }
        return result.hasKey
    }
}
