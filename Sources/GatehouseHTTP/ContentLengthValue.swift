/// The `Content-Length` value grammar: `1*DIGIT` (RFC 9110 §8.6) and nothing else: no sign, no
/// whitespace inside, no comma-separated list. Leading zeros are allowed by that grammar and are
/// accepted (`05` is 5); the gateway never forwards the received value, it writes its own.
enum ContentLengthValue {
    /// The largest length accepted: 2^53, the largest integer every JSON and JavaScript peer
    /// represents exactly.
    static let maximum = 1 << 53

    /// The length in `buffer[range]` (already trimmed), or nil when it is not `1*DIGIT` or exceeds
    /// `maximum`.
    static func parse(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        var value = 0
        for index in range {
            let byte = buffer[index]
            guard ASCII.isDigit(byte) else { return nil }
            value = value * 10 + Int(byte &- 0x30)
            if value > maximum { return nil }
        }
        return value
    }
}
