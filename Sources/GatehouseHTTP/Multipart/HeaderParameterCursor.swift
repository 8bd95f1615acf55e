/// Reads `token *( ";" name "=" ( token / quoted-string ) )` as used by Content-Type and
/// Content-Disposition (RFC 9110 §5.6.6, RFC 6266), tolerating whitespace around `;` and `=`.
struct HeaderParameterCursor {
    let text: [UInt8]
    var index = 0

    init(_ text: [UInt8]) {
        self.text = text
    }

    private static let separators: Set<UInt8> = [UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "\"")]

    mutating func skipWhitespace() {
        while index < text.count, text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "\t") { index += 1 }
    }

    /// Bytes up to whitespace or a separator.
    mutating func token() -> [UInt8] {
        skipWhitespace()
        let start = index
        while index < text.count, !Self.separators.contains(text[index]),
              text[index] != UInt8(ascii: " "), text[index] != UInt8(ascii: "\t") { index += 1 }
        return Array(text[start..<index])
    }

    /// Moves past the next `;`; false at the end.
    mutating func skipSeparator() -> Bool {
        skipWhitespace()
        guard index < text.count, text[index] == UInt8(ascii: ";") else { return false }
        index += 1
        return true
    }

    mutating func parameter() -> (name: [UInt8], value: [UInt8])? {
        let name = token()
        skipWhitespace()
        guard !name.isEmpty, index < text.count, text[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        skipWhitespace()
        if index < text.count, text[index] == UInt8(ascii: "\"") { return quoted().map { (name, $0) } }
        let value = token()
        return value.isEmpty ? nil : (name, value)
    }

    private mutating func quoted() -> [UInt8]? {
        index += 1
        var value: [UInt8] = []
        while index < text.count {
            let byte = text[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return value
            case UInt8(ascii: "\\"):
                guard index < text.count else { return nil }
                value.append(text[index])
                index += 1
            default: value.append(byte)
            }
        }
        return nil
    }
}
