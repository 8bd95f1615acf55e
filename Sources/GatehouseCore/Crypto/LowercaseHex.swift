/// Lowercase hex digits of a digest, written where the caller wants them. Cache keys, ETags and
/// operation hashes are taken on the request path; writing digits into an array's or a string's
/// storage directly costs one allocation and no per-byte append.
enum LowercaseHex {
    /// Writes `2 × bytes.count` digits at `output`.
    static func write(_ bytes: UnsafeRawBufferPointer, to output: UnsafeMutablePointer<UInt8>) {
        var at = output
        for byte in bytes {
            at[0] = digit(byte >> 4)
            at[1] = digit(byte & 0x0F)
            at += 2
        }
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

    /// Appends the digits of `bytes` between two `quote`s (an ETag) in one copy.
    static func append(_ bytes: UnsafeRawBufferPointer, quotedBy quote: UInt8, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count * 2 + 2) { digits in
            digits[0] = quote
            digits[digits.count - 1] = quote
            write(bytes, to: digits.baseAddress! + 1)
            output.append(contentsOf: UnsafeBufferPointer(digits))
        }
    }

    @inline(__always)
    private static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
