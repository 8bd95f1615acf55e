/// Percent-escaped UTF-8 in paths ("%e2%88%95"), decoded in place without allocating.
extension PathValidator {
    /// The scalar whose UTF-8 sequence starts with the escape at `start` (already decoded to
    /// `lead`) and the index just past its last escape; nil unless the bytes are well-formed UTF-8
    /// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) written entirely as
    /// escapes.
    static func escapedScalar(in path: UnsafeRawBufferPointer, at start: Int,
                              lead: UInt8) -> (scalar: UInt32, end: Int)? {
        // The sequence length and the range the first continuation byte must fall in; the
        // narrowed ranges are what rule out overlong forms, surrogates and values over U+10FFFF.
        let length: Int
        var secondRange: ClosedRange<UInt8> = continuationRange
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF:
            length = 2
            scalar = UInt32(lead & 0x1F)
        case 0xE0...0xEF:
            length = 3
            scalar = UInt32(lead & 0x0F)
            if lead == 0xE0 { secondRange = 0xA0...0xBF }
            if lead == 0xED { secondRange = 0x80...0x9F }
        case 0xF0...0xF4:
            length = 4
            scalar = UInt32(lead & 0x07)
            if lead == 0xF0 { secondRange = 0x90...0xBF }
            if lead == 0xF4 { secondRange = 0x80...0x8F }
        default:
            return nil  // a lone continuation byte, an overlong lead (C0, C1) or beyond F4
        }
        var index = start + escapeLength
        for position in 1..<length {
            guard let byte = escapedByte(in: path, at: index),
                  (position == 1 ? secondRange : continuationRange).contains(byte) else { return nil }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
            index += escapeLength
        }
        return (scalar, index)
    }

    /// UTF-8 continuation bytes: 10xxxxxx.
    private static let continuationRange: ClosedRange<UInt8> = 0x80...0xBF
}
