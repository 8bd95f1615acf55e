/// The token of an `Authorization: Bearer <token>` value (RFC 6750 §2.1).
public enum BearerToken {
    /// The range of the token within `authorizationValue`, or nil when the value is not exactly
    /// the scheme `Bearer` (any case), one space, and a non-empty token68
    /// (`A–Z a–z 0–9 - . _ ~ + /`, then only `=` padding).
    public static func extract(from authorizationValue: UnsafeRawBufferPointer) -> Range<Int>? {
        let tokenStart = scheme.count + 1
        guard authorizationValue.count > tokenStart else { return nil }
        for offset in 0..<scheme.count {
            // ASCII lowercase; letters only, so OR-ing 0x20 cannot turn another byte into a match.
            guard authorizationValue[offset] | 0x20 == scheme[offset] else { return nil }
        }
        guard authorizationValue[scheme.count] == UInt8(ascii: " ") else { return nil }
        var index = tokenStart
        while index < authorizationValue.count, isToken68Character(authorizationValue[index]) {
            index += 1
        }
        guard index > tokenStart else { return nil }
        while index < authorizationValue.count, authorizationValue[index] == UInt8(ascii: "=") {
            index += 1
        }
        guard index == authorizationValue.count else { return nil }
        return tokenStart..<authorizationValue.count
    }

    /// `bearer` as bytes: indexing a String's UTF-8 view on every request costs more than the scan.
    private static let scheme: [UInt8] = Array("bearer".utf8)

    public static func extract(from authorizationValue: [UInt8]) -> Range<Int>? {
        authorizationValue.withUnsafeBytes { extract(from: $0) }
    }

    @inline(__always)
    private static func isToken68Character(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "+"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }
}
