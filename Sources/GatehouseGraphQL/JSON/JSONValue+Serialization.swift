// Compact RFC 8259 output: no whitespace, members in order, numbers as their lexeme.

extension JSONValue {
    // MARK: - Serialization

    public func serialized(into output: inout [UInt8]) {
        switch self {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let value):
            output.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .number(let lexeme):
            output.append(contentsOf: lexeme.utf8)
        case .string(let value):
            JSONValue.appendQuoted(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.serialized(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            object.serialized(into: &output)
        }
    }

    public var serializedBytes: [UInt8] {
        var output: [UInt8] = []
        serialized(into: &output)
        return output
    }

    /// The compact JSON text as a String.
    public var serializedString: String {
        String(decoding: serializedBytes, as: UTF8.self)
    }

    // MARK: - Strings

    /// Appends `s` as a JSON string literal: `"` and `\` escaped, control characters as short
    /// escapes or `\u00XX`, everything else (including non-ASCII) as its UTF-8 bytes.
    public static func appendQuoted(_ s: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "\\"))
            case 0x0A: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "t"))
            case 0x08: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "\\")); output.append(UInt8(ascii: "f"))
            case 0x00..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

extension JSONObject {
    public func serialized(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        for (position, member) in members.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            JSONValue.appendQuoted(member.key, to: &output)
            output.append(UInt8(ascii: ":"))
            member.value.serialized(into: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}
