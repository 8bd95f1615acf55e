/// Eight bytes of a head tested at once, for the scanners that skip plain bytes a word at a
/// time (`HeadScanner`, `RequestLineParser`). Each test sets the high bit of the bytes it flags.
/// A borrow only runs upward, so a test may also flag bytes above its first true match but never
/// one below it. The lowest flagged byte of a test, or of several tests OR-ed together, is
/// therefore exactly the first byte that matches any of them. Words are loaded little-endian, so
/// the lowest byte is the first one.
enum ByteWord {
    static let lowBits: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `offset`, the first in the lowest bits.
    @inline(__always)
    static func load(_ buffer: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Flags the bytes below `bound` (at most 0x80).
    @inline(__always)
    static func below(_ bound: UInt8, in word: UInt64) -> UInt64 {
        (word &- lowBits &* UInt64(bound)) & ~word & highBits
    }

    /// Flags the bytes equal to `byte`.
    @inline(__always)
    static func equal(to byte: UInt8, in word: UInt64) -> UInt64 {
        let difference = word ^ (lowBits &* UInt64(byte))
        return (difference &- lowBits) & ~difference & highBits
    }

    /// Flags the bytes from 0x80 on (obs-text).
    @inline(__always)
    static func nonASCII(in word: UInt64) -> UInt64 { word & highBits }

    /// The index within the word of its lowest flagged byte; `flags` must not be 0.
    @inline(__always)
    static func firstFlagged(_ flags: UInt64) -> Int { flags.trailingZeroBitCount / 8 }
}
