// MARK: - Byte grammar

/// Byte constants and character classes from the RFC 9110 / RFC 9112 grammar, shared by every
/// parser in this module. Everything here is a pure function of one byte so it inlines into the
/// parsing loops. The case folding is usable from other modules' inlined code (`HeaderNames`).
@usableFromInline
enum ASCII {
    static let tab: UInt8 = 0x09
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let percent: UInt8 = 0x25
    static let comma: UInt8 = 0x2C
    static let period: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let equals: UInt8 = 0x3D
    static let questionMark: UInt8 = 0x3F
    static let leftBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let rightBracket: UInt8 = 0x5D
    static let hash: UInt8 = 0x23
    static let delete: UInt8 = 0x7F

    /// `tchar` (RFC 9110 §5.6.2): the bytes of methods, field names and list tokens.
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A:
            return true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E:
            return true
        default:
            return false
        }
    }

    /// SP or HTAB: optional whitespace (OWS/BWS).
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    /// A byte that may appear anywhere inside a head line: VCHAR, SP, HTAB or obs-text.
    /// Everything else (CTLs including NUL and bare CR/LF, and DEL) is never valid in a head.
    @inline(__always)
    static func isLineByte(_ byte: UInt8) -> Bool {
        (byte >= space && byte != delete) || byte == tab
    }

    /// VCHAR (0x21–0x7E).
    @inline(__always)
    static func isVisible(_ byte: UInt8) -> Bool {
        byte > space && byte < delete
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10
    }

    /// The value of a hex digit, or nil.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// Lowercases ASCII letters only; every other byte is returned unchanged.
    @inlinable @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// Every byte of `word` lowercased at once, exactly as `lowercased(_:)` does each: a byte
    /// gains 0x20 when its low seven bits are at least "A" (adding 0x3F reaches the high bit),
    /// not past "Z" (adding 0x25 does not), and its own high bit is clear. No sum carries into
    /// the next byte.
    @inlinable @inline(__always)
    static func lowercased<Word: FixedWidthInteger & UnsignedInteger>(word: Word) -> Word {
        let ones = Word.max / 0xFF
        let heptets = word & (ones &* 0x7F)
        let fromA = heptets &+ (ones &* 0x3F)
        let pastZ = heptets &+ (ones &* 0x25)
        let upper = fromA & ~pastZ & ~word & (ones &* 0x80)
        return word | (upper >> 2)
    }
}
