/// Splits a GraphQL document (UTF-8 bytes) into tokens per the GraphQL spec (October 2021, §2.1):
/// punctuators, names, int and float values, strings with escapes and block strings. White space,
/// line terminators, comments, commas and the byte order mark are skipped as ignored tokens.
///
/// The input must be valid UTF-8 (it comes from a Swift `String`); the lexer checks only the
/// GraphQL rules on top of that. It knows no keywords, so it serves SDL as well as executable
/// documents. Its per-token path is `@inlinable` for readers in other modules that drive it
/// token by token; the rarer string, number and error paths stay behind a call.
public struct GraphQLLexer {
    public let bytes: [UInt8]
    @usableFromInline var position = 0
    @usableFromInline var line = 1
    @usableFromInline var lineStart = 0

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: - Positions

    /// Line and column of a byte offset on the line that starts at `lineStart`.
    func sourcePosition(offset: Int, line: Int, lineStart: Int) -> GraphQLSourcePosition {
        var column = 1
        var index = lineStart
        while index < offset && index < bytes.count {
            // UTF-8 continuation bytes do not start a new scalar.
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return GraphQLSourcePosition(line: line, column: column)
    }

    public func sourcePosition(of token: GraphQLToken) -> GraphQLSourcePosition {
        sourcePosition(offset: token.start, line: token.line, lineStart: token.lineStart)
    }

    @usableFromInline
    func error(_ message: String, at offset: Int) -> GraphQLSyntaxError {
        GraphQLSyntaxError(message, at: sourcePosition(offset: offset, line: line, lineStart: lineStart))
    }

    // MARK: - Tokens

    /// The next token; `.endOfInput` once the text is used up (and again on every later call).
    @inlinable
    public mutating func next() throws(GraphQLSyntaxError) -> GraphQLToken {
        skipIgnored()
        let start = position
        guard start < bytes.count else {
            return token(.endOfInput, start: start, end: start)
        }
        let byte = bytes[start]
        switch byte {
        case UInt8(ascii: "!"): return punctuator(.bang)
        case UInt8(ascii: "$"): return punctuator(.dollar)
        case UInt8(ascii: "&"): return punctuator(.ampersand)
        case UInt8(ascii: "("): return punctuator(.parenOpen)
        case UInt8(ascii: ")"): return punctuator(.parenClose)
        case UInt8(ascii: ":"): return punctuator(.colon)
        case UInt8(ascii: "="): return punctuator(.equals)
        case UInt8(ascii: "@"): return punctuator(.at)
        case UInt8(ascii: "["): return punctuator(.bracketOpen)
        case UInt8(ascii: "]"): return punctuator(.bracketClose)
        case UInt8(ascii: "{"): return punctuator(.braceOpen)
        case UInt8(ascii: "|"): return punctuator(.pipe)
        case UInt8(ascii: "}"): return punctuator(.braceClose)
        case UInt8(ascii: "."):
            guard byteAt(start + 1) == UInt8(ascii: "."), byteAt(start + 2) == UInt8(ascii: ".") else {
                throw error("Unexpected character \".\"", at: start)
            }
            position = start + 3
            return token(.spread, start: start, end: position)
        case UInt8(ascii: "\""):
            if byteAt(start + 1) == UInt8(ascii: "\""), byteAt(start + 2) == UInt8(ascii: "\"") {
                return try readBlockString()
            }
            return try readString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try readNumber()
        default:
            if GraphQLLexer.isNameStart(byte) { return readName() }
            throw error("Unexpected character \(describeCharacter(at: start))", at: start)
        }
    }

    @inlinable
    func token(_ kind: GraphQLToken.Kind, start: Int, end: Int,
                       line: Int? = nil, lineStart: Int? = nil, value: String? = nil) -> GraphQLToken {
        GraphQLToken(kind: kind, start: start, end: end, line: line ?? self.line,
                     lineStart: lineStart ?? self.lineStart, stringValue: value)
    }

    @inlinable
    mutating func punctuator(_ kind: GraphQLToken.Kind) -> GraphQLToken {
        position += 1
        return token(kind, start: position - 1, end: position)
    }

    @inlinable
    func byteAt(_ index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    // MARK: - Ignored tokens

    @inlinable
    mutating func skipIgnored() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ","):
                position += 1
            case UInt8(ascii: "\n"):
                position += 1
                startLine()
            case UInt8(ascii: "\r"):
                position += 1
                if byteAt(position) == UInt8(ascii: "\n") { position += 1 }
                startLine()
            case UInt8(ascii: "#"):
                while position < bytes.count, bytes[position] != UInt8(ascii: "\n"),
                      bytes[position] != UInt8(ascii: "\r") {
                    position += 1
                }
            case 0xEF where byteAt(position + 1) == 0xBB && byteAt(position + 2) == 0xBF:
                position += 3 // U+FEFF byte order mark
            default:
                return
            }
        }
    }

    @inlinable
    mutating func startLine() {
        line += 1
        lineStart = position
    }

    // MARK: - Names

    @inlinable
    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_")
    }

    @inlinable
    static func isNameContinue(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte)
    }

    @inlinable
    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    @inlinable
    mutating func readName() -> GraphQLToken {
        let start = position
        position += 1
        while position < bytes.count, GraphQLLexer.isNameContinue(bytes[position]) {
            position += 1
        }
        return token(.name, start: start, end: position)
    }

    // MARK: - Numbers

    /// IntValue and FloatValue; a number may not be directly followed by `.`, a name start or a
    /// digit (`00`, `1.`, `1x`, `1.2.3` are errors, not two tokens).
    @usableFromInline
    mutating func readNumber() throws(GraphQLSyntaxError) -> GraphQLToken {
        let start = position
        var isFloat = false
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        if byteAt(position) == UInt8(ascii: "0") {
            position += 1
            if let next = byteAt(position), GraphQLLexer.isDigit(next) {
                throw error("Invalid number, unexpected digit after 0: \(describeCharacter(at: position))",
                            at: position)
            }
        } else {
            try readDigits()
        }
        if byteAt(position) == UInt8(ascii: ".") {
            isFloat = true
            position += 1
            try readDigits()
        }
        if byteAt(position) == UInt8(ascii: "e") || byteAt(position) == UInt8(ascii: "E") {
            isFloat = true
            position += 1
            if byteAt(position) == UInt8(ascii: "+") || byteAt(position) == UInt8(ascii: "-") {
                position += 1
            }
            try readDigits()
        }
        if let next = byteAt(position), next == UInt8(ascii: ".") || GraphQLLexer.isNameStart(next) {
            throw error("Invalid number, expected digit but got: \(describeCharacter(at: position))",
                        at: position)
        }
        return token(isFloat ? .float : .int, start: start, end: position)
    }

    private mutating func readDigits() throws(GraphQLSyntaxError) {
        guard let first = byteAt(position), GraphQLLexer.isDigit(first) else {
            throw error("Invalid number, expected digit but got: \(describeCharacter(at: position))",
                        at: position)
        }
        while let next = byteAt(position), GraphQLLexer.isDigit(next) {
            position += 1
        }
    }

    // MARK: - Strings

    @usableFromInline
    mutating func readString() throws(GraphQLSyntaxError) -> GraphQLToken {
        let start = position
        position += 1
        var value: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return token(.string, start: start, end: position,
                             value: String(decoding: value, as: UTF8.self))
            case UInt8(ascii: "\\"):
                try readEscape(into: &value)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw error("Unterminated string", at: position)
            case 0x00..<0x20 where byte != UInt8(ascii: "\t"), 0x7F:
                throw error("Invalid character within String: \(describeCharacter(at: position))",
                            at: position)
            default:
                value.append(byte)
                position += 1
            }
        }
        throw error("Unterminated string", at: position)
    }

    /// `\" \\ \/ \b \f \n \r \t \uXXXX`; a surrogate pair written as two `\u` escapes is one scalar,
    /// a lone surrogate is an error.
    private mutating func readEscape(into value: inout [UInt8]) throws(GraphQLSyntaxError) {
        let escapeStart = position
        guard let code = byteAt(position + 1) else { throw error("Unterminated string", at: position) }
        position += 2
        let simple: UInt8?
        switch code {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            throw error("Invalid character escape sequence: \(escapeText(from: escapeStart, length: 2))",
                        at: escapeStart)
        }
        if let simple {
            value.append(simple)
            return
        }
        guard let unit = hexQuad(at: position) else {
            throw error("Invalid Unicode escape sequence: \(escapeText(from: escapeStart, length: 6))",
                        at: escapeStart)
        }
        position += 4
        var scalarValue = unit
        if (0xD800...0xDBFF).contains(unit) {
            guard byteAt(position) == UInt8(ascii: "\\"), byteAt(position + 1) == UInt8(ascii: "u"),
                  let low = hexQuad(at: position + 2), (0xDC00...0xDFFF).contains(low) else {
                throw error("Invalid Unicode escape sequence: \(escapeText(from: escapeStart, length: 6))",
                            at: escapeStart)
            }
            position += 6
            scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw error("Invalid Unicode escape sequence: \(escapeText(from: escapeStart, length: 6))",
                        at: escapeStart)
        }
        value.append(contentsOf: String(Character(scalar)).utf8)
    }

    private func hexQuad(at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var result: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            result = result << 4 | UInt32(digit)
        }
        return result
    }

    // MARK: - Block strings

    /// `"""…"""`: raw text where only `\"""` is an escape; the value is dedented per BlockStringValue.
    @usableFromInline
    mutating func readBlockString() throws(GraphQLSyntaxError) -> GraphQLToken {
        let start = position
        let startLine = line
        let startLineStart = lineStart
        position += 3
        var raw: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\""), byteAt(position + 1) == UInt8(ascii: "\""),
               byteAt(position + 2) == UInt8(ascii: "\"") {
                position += 3
                let value = GraphQLBlockString.value(ofRaw: raw)
                return token(.blockString, start: start, end: position, line: startLine,
                             lineStart: startLineStart, value: value)
            }
            if byte == UInt8(ascii: "\\"), byteAt(position + 1) == UInt8(ascii: "\""),
               byteAt(position + 2) == UInt8(ascii: "\""), byteAt(position + 3) == UInt8(ascii: "\"") {
                raw.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "\""), UInt8(ascii: "\"")])
                position += 4
                continue
            }
            switch byte {
            case UInt8(ascii: "\n"):
                raw.append(byte)
                position += 1
                self.startLine()
            case UInt8(ascii: "\r"):
                raw.append(byte)
                position += 1
                if byteAt(position) == UInt8(ascii: "\n") {
                    raw.append(UInt8(ascii: "\n"))
                    position += 1
                }
                self.startLine()
            case 0x00..<0x20 where byte != UInt8(ascii: "\t"), 0x7F:
                throw error("Invalid character within String: \(describeCharacter(at: position))",
                            at: position)
            default:
                raw.append(byte)
                position += 1
            }
        }
        throw error("Unterminated string", at: position)
    }

    // MARK: - Describing input

    /// `"x"` for printable characters, `U+000B` for others, `<EOF>` past the end.
    @usableFromInline
    func describeCharacter(at index: Int) -> String {
        guard index < bytes.count else { return "<EOF>" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F {
            return byte == UInt8(ascii: "\"") ? "'\"'" : "\"\(Character(Unicode.Scalar(byte)))\""
        }
        if byte < 0x80 {
            let hex = String(byte, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "\"" + String(decoding: bytes[index..<end], as: UTF8.self) + "\""
    }

    private func escapeText(from index: Int, length: Int) -> String {
        var end = index
        while end < bytes.count, end < index + length,
              bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\n") {
            end += 1
        }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }
}
