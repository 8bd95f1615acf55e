// Strings: escapes, surrogate pairs and UTF-8 validation (Unicode Table 3-7 well-formed sequences).

extension JSONParser {
    // MARK: - Strings

    /// Reads a string starting at its opening quote.
    mutating func parseString() throws(JSONError) -> String {
        // Scanned first, in its own statement: `string(try scanString())` would read `self`
        // (and its scratch) before the scan fills it.
        let scanned = try scanString()
        return string(scanned)
    }

    /// A string `scanString` just stepped over (an escaped one is decoded in `scratch` until the
    /// next string is scanned).
    typealias ScannedString = (content: Range<Int>, escaped: Bool)

    func string(_ scanned: ScannedString) -> String {
        if scanned.escaped { return String(decoding: scratch, as: UTF8.self) }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[scanned.content]), as: UTF8.self)
    }

    /// Steps over a string starting at its opening quote, checking it (escapes, control bytes,
    /// UTF-8) without making a String. `content` is the span between the quotes; when the string
    /// has escapes, its decoded bytes are in `scratch`.
    @inline(__always)
    mutating func scanString() throws(JSONError) -> ScannedString {
        index += 1  // opening quote
        let contentStart = index
        // Most strings are printable ASCII without escapes: stepped over in a tight loop, inlined.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return (contentStart..<(index - 1), false)
        }
        return try scanEscapedOrNonASCII(from: contentStart)
    }

    /// The rest of a string whose plain ASCII prefix ends at `index`: escapes, UTF-8, control bytes.
    private mutating func scanEscapedOrNonASCII(from contentStart: Int) throws(JSONError) -> ScannedString {
        var segmentStart = contentStart
        var hasEscapes = false
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let content = contentStart..<index
                if hasEscapes { scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[segmentStart..<index])) }
                index += 1
                return (content, hasEscapes)
            case UInt8(ascii: "\\"):
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[segmentStart..<index]))
                hasEscapes = true
                try parseEscape()
                segmentStart = index
            case 0x00..<0x20:
                throw failure("control character in a string")
            case 0x20..<0x80:
                index += 1
            default:
                try skipUTF8Sequence()
            }
        }
    }

    /// Reads one escape starting at its backslash and appends the decoded bytes to `scratch`.
    mutating func parseEscape() throws(JSONError) {
        index += 1  // backslash
        guard index < bytes.count else { throw failure("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"): try parseUnicodeEscape()
        default:
            index -= 1
            throw failure("invalid escape")
        }
    }

    /// `\uXXXX`, or a `\uD8xx\uDCxx` surrogate pair; a lone surrogate is refused.
    mutating func parseUnicodeEscape() throws(JSONError) {
        let escapeStart = index - 2
        let first = try readHex4()
        var scalarValue = UInt32(first)
        switch first {
        case 0xD800...0xDBFF:
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                  bytes[index + 1] == UInt8(ascii: "u") else {
                throw JSONError(message: "lone surrogate in \\u escape", offset: escapeStart)
            }
            index += 2
            let second = try readHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw JSONError(message: "lone surrogate in \\u escape", offset: escapeStart)
            }
            scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
        case 0xDC00...0xDFFF:
            throw JSONError(message: "lone surrogate in \\u escape", offset: escapeStart)
        default:
            break
        }
        appendUTF8(scalarValue)
    }

    mutating func readHex4() throws(JSONError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw failure("truncated \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(0xC0 | UInt8(scalar >> 6))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(0xE0 | UInt8(scalar >> 12))
            scratch.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(scalar >> 18))
            scratch.append(0x80 | UInt8((scalar >> 12) & 0x3F))
            scratch.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    // MARK: - UTF-8

    /// Steps over one well-formed multi-byte UTF-8 sequence: no overlong forms, no encoded
    /// surrogates, nothing above U+10FFFF.
    mutating func skipUTF8Sequence() throws(JSONError) {
        let lead = bytes[index]
        let secondRange: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2; secondRange = 0x80...0xBF
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; secondRange = 0x80...0xBF
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4; secondRange = 0x80...0xBF
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw failure("invalid UTF-8")
        }
        guard bytes.count - index >= length, secondRange.contains(bytes[index + 1]) else {
            throw failure("invalid UTF-8")
        }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            throw failure("invalid UTF-8")
        }
        index += length
    }
}
