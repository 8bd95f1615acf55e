/// The `Host` value grammar (RFC 9110 §7.2, RFC 3986 §3.2.2): `uri-host [ ":" port ]` where the
/// host is a reg-name or IPv4 address (unreserved, sub-delims, pct-encoded) or an IPv6 literal in
/// brackets. Empty hosts, userinfo (`@`), paths, whitespace and IPvFuture literals are refused.
enum HostValue {
    static let maxPortDigits = 5

    static func isValid(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        var index = range.lowerBound
        let end = range.upperBound
        if buffer[index] == ASCII.leftBracket {
            guard let closing = ipLiteralEnd(buffer, from: index + 1, to: end) else { return false }
            index = closing + 1
        } else {
            let hostStart = index
            while index < end, buffer[index] != ASCII.colon {
                let byte = buffer[index]
                if byte == ASCII.percent {
                    guard index + 2 < end, ASCII.hexValue(buffer[index + 1]) != nil,
                          ASCII.hexValue(buffer[index + 2]) != nil else { return false }
                    index += 3
                    continue
                }
                guard isRegNameByte(byte) else { return false }
                index += 1
            }
            guard index > hostStart else { return false }
        }
        guard index < end else { return true }
        guard buffer[index] == ASCII.colon else { return false }
        return isValidPort(buffer, (index + 1)..<end)
    }

    // MARK: - Parts

    /// unreserved / sub-delims (RFC 3986 §2.2–2.3).
    @inline(__always)
    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E:
            return true
        case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D:
            return true
        default:
            return false
        }
    }

    /// The index of the `]` closing an IPv6 literal that starts at `start` (after `[`).
    private static func ipLiteralEnd(_ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        var index = start
        var colons = 0
        while index < end {
            let byte = buffer[index]
            if byte == ASCII.rightBracket {
                return colons >= 2 ? index : nil
            }
            if byte == ASCII.colon {
                colons += 1
            } else if ASCII.hexValue(byte) == nil && byte != ASCII.period {
                return nil
            }
            index += 1
        }
        return nil
    }

    /// 1 to 5 digits, at most 65535.
    private static func isValidPort(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty, range.count <= maxPortDigits else { return false }
        var port = 0
        for index in range {
            let byte = buffer[index]
            guard ASCII.isDigit(byte) else { return false }
            port = port * 10 + Int(byte &- 0x30)
        }
        return port <= 65_535
    }
}
