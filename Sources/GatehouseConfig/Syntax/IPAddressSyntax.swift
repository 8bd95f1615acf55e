#if canImport(Glibc)
import Glibc
#endif

/// Textual IP addresses, parsed by the C library's `inet_pton` (strict dotted-quad for IPv4,
/// RFC 4291 text for IPv6, no zone ids).
public enum IPAddressSyntax {
    /// The 4 address bytes of a dotted-quad IPv4 address.
    static func ipv4(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// The 16 address bytes of an IPv6 address.
    static func ipv6(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// An IPv4 or IPv6 address.
    public static func address(_ text: String) -> [UInt8]? {
        ipv4(text) ?? ipv6(text)
    }

    /// A DNS host name: dot-separated labels of letters, digits and inner hyphens (RFC 1123),
    /// optionally ending in a dot. The last label must not be all digits (RFC 3696 §2), so text
    /// such as `10.0.0.256` or `1.2.3`, which is no valid address, is not taken for a name either.
    static func isHostName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        var labelLength = 0
        var labelIsNumeric = true
        var lastLabelIsNumeric = true
        var previous: UInt8 = UInt8(ascii: ".")
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0, previous != UInt8(ascii: "-") else { return false }
                lastLabelIsNumeric = labelIsNumeric
                labelLength = 0
                labelIsNumeric = true
            } else {
                let isDigit = byte >= 0x30 && byte <= 0x39
                let isAlphanumeric = isDigit
                    || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
                guard isAlphanumeric || (byte == UInt8(ascii: "-") && labelLength > 0) else { return false }
                labelIsNumeric = labelIsNumeric && isDigit
                labelLength += 1
                guard labelLength <= 63 else { return false }
            }
            previous = byte
        }
        if labelLength > 0 { lastLabelIsNumeric = labelIsNumeric }
        return previous != UInt8(ascii: "-") && !lastLabelIsNumeric
    }
}
