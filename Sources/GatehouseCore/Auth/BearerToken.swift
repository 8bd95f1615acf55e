/// The token of an `Authorization: Bearer <token>` value (RFC 6750 §2.1).
public enum BearerToken {
    /// The range of the token within `authorizationValue`, or nil when the value is not exactly
    /// the scheme `Bearer` (any case), one space, and a non-empty token68
    /// (`A–Z a–z 0–9 - . _ ~ + /`, then only `=` padding).
    public static func extract(from authorizationValue: UnsafeRawBufferPointer) -> Range<Int>? {
        guard let token = locate(in: authorizationValue),
              isWellFormed(UnsafeRawBufferPointer(rebasing: authorizationValue[token])) else { return nil }
        return token
    }

    /// Where the token lies — every byte after the scheme `Bearer` (any case) and one space, at
    /// least one — without checking its characters: a token the verified-token cache already
    /// holds was checked when it was first verified, so the request path checks only on a miss
    /// (`isWellFormed`).
    public static func locate(in authorizationValue: UnsafeRawBufferPointer) -> Range<Int>? {
        let tokenStart = scheme.count + 1
        guard authorizationValue.count > tokenStart else { return nil }
        for offset in 0..<scheme.count {
            // ASCII lowercase; letters only, so OR-ing 0x20 cannot turn another byte into a match.
            guard authorizationValue[offset] | 0x20 == scheme[offset] else { return nil }
        }
        guard authorizationValue[scheme.count] == UInt8(ascii: " ") else { return nil }
        return tokenStart..<authorizationValue.count
    }

    /// A non-empty token68, then only `=` padding.
    public static func isWellFormed(_ token: UnsafeRawBufferPointer) -> Bool {
        var end = token.count
        while end > 0, token[end - 1] == UInt8(ascii: "=") { end -= 1 }
        return end > 0 && isToken68(token, from: 0, to: end)
    }

    /// Every byte in `start..<end` is a token68 character ('=' only as padding, stripped
    /// before). Tokens are hundreds of bytes (an RS256 JWT is some 800), so the check ORs table
    /// lookups without a branch per byte rather than stopping at the first bad one.
    @inline(__always)
    private static func isToken68(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        notToken68.withUnsafeBufferPointer { table in
            var bad: UInt8 = 0
            var index = start
            while index + 4 <= end {
                bad |= table[Int(bytes[index])] | table[Int(bytes[index + 1])]
                    | table[Int(bytes[index + 2])] | table[Int(bytes[index + 3])]
                index += 4
            }
            while index < end {
                bad |= table[Int(bytes[index])]
                index += 1
            }
            return bad == 0
        }
    }

    /// 1 for every byte that is not `A–Z a–z 0–9 - . _ ~ + /`.
    private static let notToken68: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "+"), UInt8(ascii: "/"):
            return 0
        default:
            return 1
        }
    }

    /// `bearer` as bytes: indexing a String's UTF-8 view on every request costs more than the scan.
    private static let scheme: [UInt8] = Array("bearer".utf8)

    public static func extract(from authorizationValue: [UInt8]) -> Range<Int>? {
        authorizationValue.withUnsafeBytes { extract(from: $0) }
    }
}
