/// Fast serialization into a byte buffer: ASCII literals and integers without creating Strings.
extension Array where Element == UInt8 {
    /// Appends the bytes of an ASCII literal such as `"Content-Length: "`.
    @inline(__always)
    public mutating func append(ascii literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends a string's UTF-8 bytes in one copy; appending `string.utf8` goes element by
    /// element, which showed in profiles of the header lines written per request.
    @inline(__always)
    public mutating func append(utf8 string: String) {
        var string = string
        string.withUTF8 { append(contentsOf: $0) }
    }

    /// `count` zero bytes in storage of that capacity, to be written in place. Not
    /// `Array(repeating:count:)` or `Array(unsafeUninitializedCapacity:)`: both allocate through
    /// an unspecialized path that costs more than the memset (callgrind: ~190 instructions).
    /// `capacity` leaves room for what is appended next.
    public static func zeroed(count: Int, capacity: Int? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity ?? count)
        bytes.append(contentsOf: repeatElement(0, count: count))
        return bytes
    }

    /// Appends `value` in decimal (`-` first when negative), the digits in one copy (`DecimalDigits`).
    public mutating func append(decimal value: Int) {
        if value < 0 { append(0x2D) }
        if value.magnitude < 10 { return append(0x30 &+ UInt8(truncatingIfNeeded: value.magnitude)) }
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes, room for the longest
        Swift.withUnsafeMutableBytes(of: &scratch) { digits in
            let first = DecimalDigits.write(value.magnitude, endingAt: digits.count, in: digits)
            append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[first...]))
        }
    }

    /// Appends `value` in lowercase hexadecimal without leading zeros (`0` for zero), as chunk
    /// sizes are written. `value` must not be negative.
    public mutating func append(hex value: Int) {
        precondition(value >= 0, "hex values are written for sizes, which are never negative")
        var shift = 0
        while shift < Int.bitWidth - 4, value >> (shift + 4) != 0 { shift += 4 }
        while shift >= 0 {
            let digit = UInt8(truncatingIfNeeded: (value >> shift) & 0xF)
            append(digit < 10 ? 0x30 + digit : 0x57 + digit)
            shift -= 4
        }
    }
}
