import Testing
@testable import GatehouseCore

/// The word-at-a-time hex writer against the obvious one: every nibble value in every digit
/// position, odd lengths (the byte-by-byte tail), and request ids written from their words.
struct LowercaseHexTests {
    static func reference(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static let words: [UInt64] = [0, 1, 0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, .max, 0xA0A0_0909_FAFA_1010]

    @Test(arguments: 0...9)
    func bytesAreWrittenAsTheirDigits(_ count: Int) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 0x3B &+ count &* 0x11) }
        let digits = bytes.withUnsafeBytes { LowercaseHex.bytes($0) }
        #expect(String(decoding: digits, as: UTF8.self) == Self.reference(bytes))
    }

    @Test func everyByteValueIsItsTwoDigits() {
        let bytes = (0...255).map { UInt8($0) }
        let digits = bytes.withUnsafeBytes { LowercaseHex.bytes($0) }
        #expect(String(decoding: digits, as: UTF8.self) == Self.reference(bytes))
    }

    @Test(arguments: words)
    func aWordIsSixteenDigitsMostSignificantFirst(_ word: UInt64) {
        var digits = [UInt8](repeating: 0, count: 16)
        digits.withUnsafeMutableBytes { LowercaseHex.write(word, to: $0.baseAddress!) }
        let expected = String(repeating: "0", count: 16 - String(word, radix: 16).count) + String(word, radix: 16)
        #expect(String(decoding: digits, as: UTF8.self) == expected)
    }

    @Test func aMadeRequestIDIsItsTwoWordsInHex() {
        let id = RequestID(high: 0x0123_4567_89AB_CDEF, low: 0xA0A0_0909_FAFA_1010)
        #expect(id.description == "0123456789abcdefa0a00909fafa1010")
        var generator = RequestIDGenerator()
        let made = generator.make().description
        #expect(made.utf8.count == 32)
        #expect(made.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
    }
}

