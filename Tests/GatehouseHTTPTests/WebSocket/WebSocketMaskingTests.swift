import Testing
@testable import GatehouseHTTP

/// The word-at-a-time masking against RFC 6455 §5.3 written out byte by byte: every start
/// offset within the frame, every length around the word size, unaligned buffers.
@Suite struct WebSocketMaskingTests {
    /// §5.3: transformed-octet-i = original-octet-i XOR masking-key-octet-(i MOD 4).
    static func reference(key: UInt32, offset: UInt64, _ bytes: [UInt8]) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let keyByte = Int((offset + UInt64(index)) % 4)
            return byte ^ UInt8(truncatingIfNeeded: key >> UInt32(24 - 8 * keyByte))
        }
    }

    @Test(arguments: [UInt64(0), 1, 2, 3, 4, 5, 6, 7, 1001])
    func matchesTheRFC(offset: UInt64) {
        let key: UInt32 = 0x37FA_213D
        for length in 0..<41 {
            for misalignment in 0..<3 {
                let original = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
                var buffer = [UInt8](repeating: 0xEE, count: length + misalignment)
                buffer.replaceSubrange(misalignment..., with: original)
                buffer.withUnsafeMutableBytes { raw in
                    WebSocketMasking.apply(key: key, offset: offset, to: UnsafeMutableRawBufferPointer(rebasing: raw[misalignment...]))
                }
                #expect(Array(buffer[misalignment...]) == Self.reference(key: key, offset: offset, original),
                        "length \(length), misalignment \(misalignment)")
                #expect(buffer.prefix(misalignment).allSatisfy { $0 == 0xEE })
            }
        }
    }

    @Test func aZeroKeyLeavesThePayload() {
        var bytes: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
        bytes.withUnsafeMutableBytes { WebSocketMasking.apply(key: 0, offset: 3, to: $0) }
        #expect(bytes == [1, 2, 3, 4, 5, 6, 7, 8, 9])
    }
}
