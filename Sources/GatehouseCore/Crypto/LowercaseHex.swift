/// Lowercase hex digits of a digest, written where the caller wants them. Cache keys, ETags and
/// operation hashes are taken on the request path; writing digits into an array's or a string's
/// storage directly costs one allocation and no per-byte append.
enum LowercaseHex {
    /// Writes `2 × bytes.count` digits at `output`, four bytes (eight digits) at a time.
    static func write(_ bytes: UnsafeRawBufferPointer, to output: UnsafeMutablePointer<UInt8>) {
        var at = output
        var index = 0
        while index + 4 <= bytes.count {
            let four = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self))
            UnsafeMutableRawPointer(at).storeBytes(of: digits(four).littleEndian, as: UInt64.self)
            at += 8
            index += 4
        }
        while index < bytes.count {
            at[0] = digit(bytes[index] >> 4)
            at[1] = digit(bytes[index] & 0x0F)
            at += 2
            index += 1
        }
    }

    /// Writes the 16 digits of `word`, most significant first, at `output`.
    @inline(__always)
    static func write(_ word: UInt64, to output: UnsafeMutableRawPointer) {
        output.storeBytes(of: digits(UInt32(truncatingIfNeeded: word >> 32)).littleEndian, as: UInt64.self)
        output.storeBytes(of: digits(UInt32(truncatingIfNeeded: word)).littleEndian, toByteOffset: 8, as: UInt64.self)
    }

    /// The eight digits of `value` as one word whose little-endian bytes are the digits, most
    /// significant first: each nibble is spread into a byte of its own, then made its digit
    /// with no branch and no table ('0' + n, plus the gap to 'a' where n is 10 or more).
    @inline(__always)
    static func digits(_ value: UInt32) -> UInt64 {
        var nibbles = UInt64(value)
        nibbles = (nibbles | nibbles << 16) & 0x0000_FFFF_0000_FFFF
        nibbles = (nibbles | nibbles << 8) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | nibbles << 4) & 0x0F0F_0F0F_0F0F_0F0F
        let isLetter = ((nibbles &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let ascii = nibbles &+ 0x3030_3030_3030_3030 &+ isLetter &* UInt64(UInt8(ascii: "a") - UInt8(ascii: "9") - 1)
        // The spread put the least significant nibble in the lowest byte.
        return ascii.byteSwapped
    }

    /// The digits of `bytes`.
    static func bytes(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var digits = [UInt8].zeroed(count: bytes.count * 2)
        digits.withUnsafeMutableBufferPointer { output in
            guard let start = output.baseAddress else { return }
            write(bytes, to: start)
        }
        return digits
    }

    @inline(__always)
    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
