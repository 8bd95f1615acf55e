/// base64url without padding (RFC 7515 §2), strictly: only `A–Z a–z 0–9 - _`, no `=`, no
/// whitespace, and the unused low bits of the last character must be zero so that every byte
/// string has exactly one accepted spelling.
enum Base64URL {
    // MARK: - Decoding

    /// The decoded bytes, or nil when `text` is not canonical unpadded base64url.
    static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        let remainder = text.count % 4
        guard remainder != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3 + 2)
        var index = 0
        let wholeGroupsEnd = text.count - remainder
        while index < wholeGroupsEnd {
            guard let a = value(text[index]), let b = value(text[index + 1]),
                  let c = value(text[index + 2]), let d = value(text[index + 3]) else { return nil }
            output.append(a << 2 | b >> 4)
            output.append(b << 4 | c >> 2)
            output.append(c << 6 | d)
            index += 4
        }
        switch remainder {
        case 2:
            guard let a = value(text[index]), let b = value(text[index + 1]), b & 0x0F == 0 else { return nil }
            output.append(a << 2 | b >> 4)
        case 3:
            guard let a = value(text[index]), let b = value(text[index + 1]),
                  let c = value(text[index + 2]), c & 0x03 == 0 else { return nil }
            output.append(a << 2 | b >> 4)
            output.append(b << 4 | c >> 2)
        default:
            break
        }
        return output
    }

    static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode(UnsafeRawBufferPointer($0)) }
    }

    /// The 6-bit value of one alphabet character.
    @inline(__always)
    private static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    // MARK: - Encoding

    static func encode(_ bytes: some Collection<UInt8>, into output: inout [UInt8]) {
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            output.append(alphabet[Int(first >> 2)])
            output.append(alphabet[Int((first & 0x03) << 4 | (second ?? 0) >> 4)])
            guard let second else { return }
            output.append(alphabet[Int((second & 0x0F) << 2 | (third ?? 0) >> 6)])
            guard let third else { return }
            output.append(alphabet[Int(third & 0x3F)])
        }
    }

    static func encode(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        encode(bytes, into: &output)
        return output
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
