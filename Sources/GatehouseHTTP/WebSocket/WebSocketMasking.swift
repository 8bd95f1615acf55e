/// The masking transform (RFC 6455 §5.3): payload byte `i` is XORed with byte `i % 4` of the key,
/// most significant byte first. Applying it twice restores the bytes, so re-masking a client's
/// frame with a new key is one pass with `old ^ new`.
public enum WebSocketMasking {
    /// XORs `bytes` in place as the payload bytes starting at `offset` within their frame.
    public static func apply(key: UInt32, offset: UInt64, to bytes: UnsafeMutableRawBufferPointer) {
        if key == 0 { return }
        var index = 0
        var phase = Int(offset % 4)
        let count = bytes.count
        while index < count {
            let shift = UInt32(24 - 8 * phase)
            bytes[index] ^= UInt8((key >> shift) & 0xFF)
            index += 1
            phase = (phase + 1) & 3
        }
    }
}
