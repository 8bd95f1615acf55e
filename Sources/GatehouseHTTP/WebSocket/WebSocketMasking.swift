/// The masking transform (RFC 6455 §5.3): payload byte `i` is XORed with byte `i % 4` of the key,
/// most significant byte first. Applying it twice restores the bytes, so re-masking a client's
/// frame with a new key is one pass with `old ^ new`.
public enum WebSocketMasking {
    /// Bytes XORed per step of the word loop.
    static let wordBytes = MemoryLayout<UInt64>.size

    /// XORs `bytes` in place as the payload bytes starting at `offset` within their frame. Eight
    /// bytes at a time (the key repeated in memory order, turned to where `offset` starts), then
    /// the tail byte by byte: a relayed frame is re-masked at memory speed.
    public static func apply(key: UInt32, offset: UInt64, to bytes: UnsafeMutableRawBufferPointer) {
        if key == 0 { return }
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        let phase = Int(offset & 3)
        // The key as it lies over the next four payload bytes, starting at byte `phase` of the key.
        let turned = phase == 0 ? key : (key << UInt32(8 * phase)) | (key >> UInt32(32 - 8 * phase))
        let inMemoryOrder = UInt64(UInt32(bigEndian: turned))
        let word = inMemoryOrder | inMemoryOrder << 32
        var index = 0
        while index + wordBytes <= count {
            let at = base + index
            at.storeBytes(of: at.loadUnaligned(as: UInt64.self) ^ word, as: UInt64.self)
            index += wordBytes
        }
        // `index` is a multiple of 4 here, so the tail starts at the same key byte.
        var shift = UInt32(24 - 8 * phase)
        while index < count {
            bytes[index] ^= UInt8(truncatingIfNeeded: key >> shift)
            index += 1
            shift = shift == 0 ? 24 : shift - 8
        }
    }
}
