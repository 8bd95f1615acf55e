import GatehouseHTTP

/// Routing happens on the exact bytes that will be forwarded, so anything another hop could read
/// differently is refused rather than normalized (README, "Hardening").
public enum PathValidator {
    /// nil when `path` (the request target before any `?`) is acceptable; else why it is not.
    /// Allocation-free: it runs on every request.
    public static func problem(in path: UnsafeRawBufferPointer) -> String? {
        guard let first = path.first, first == UInt8(ascii: "/") else { return "The path must start with /." }
        let count = path.count
        var segmentStart = 1
        /// Where the current segment's name ends: its first `;`, if any.
        var nameEnd: Int?
        var i = 1
        while i < count {
            let byte = path[i]
            if isPlain(byte) {
                i += 1
                continue
            }
            switch byte {
            case 0x00...0x20, 0x7F...0xFF:
                return "The path contains a control, space or non-ASCII byte."
            case UInt8(ascii: "\\"):
                return "The path contains a backslash."
            case UInt8(ascii: "#"):
                return "The path contains a fragment."
            case UInt8(ascii: "%"):
                guard let decoded = escapedByte(in: path, at: i) else {
                    return "The path contains an invalid percent-escape."
                }
                if decoded < asciiLimit {
                    if let why = escapedASCIIProblem(decoded) { return why }
                    i += escapeLength
                    continue
                }
                // Escaped bytes above 0x7F must form valid UTF-8 (an overlong %c0%ae is a `.` to a
                // lenient decoder), and the character must not fold into a separator.
                guard let (scalar, end) = escapedScalar(in: path, at: i, lead: decoded) else {
                    return "The path contains percent-escapes that are not valid UTF-8."
                }
                if FoldingSeparators.contains(scalar) {
                    return "The path contains a character that folds to a dot, slash or backslash."
                }
                i = end
                continue
            case UInt8(ascii: ";"):
                if nameEnd == nil { nameEnd = i }
            default:  // "/"
                if let why = segmentProblem(path, segmentStart, nameEnd ?? i, i) { return why }
                segmentStart = i + 1
                nameEnd = nil
            }
            i += 1
        }
        return segmentProblem(path, segmentStart, nameEnd ?? count, count, last: true)
    }

    /// Printable ASCII other than the five bytes the loop looks at (`\ # % / ;`), as a bitmap
    /// of the 128 ASCII bytes: one shift and test per byte instead of a chain of comparisons.
    @inline(__always)
    private static func isPlain(_ byte: UInt8) -> Bool {
        let plainBelow64: UInt64 = 0xF7FF_7FD6_0000_0000
        let plainFrom64: UInt64 = 0x7FFF_FFFF_EFFF_FFFF
        if byte < 64 { return plainBelow64 >> UInt64(byte) & 1 != 0 }
        return byte < 128 && plainFrom64 >> UInt64(byte - 64) & 1 != 0
    }

    /// Bytes below this are ASCII; from it on an escape starts a UTF-8 sequence.
    static let asciiLimit: UInt8 = 0x80
    /// "%XX".
    static let escapeLength = 3

    /// Why an escaped ASCII byte is refused: each is a separator, a parameter start, a second
    /// round of decoding or a control byte to some hop that decodes before it splits.
    @inline(__always)
    private static func escapedASCIIProblem(_ decoded: UInt8) -> String? {
        switch decoded {
        case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "."), 0x00..<0x20, 0x7F:
            return "The path contains an encoded slash, backslash, dot or control byte."
        case UInt8(ascii: ";"):
            // `..%3b` is `..;` (a dot segment with a parameter) to a backend that decodes first.
            return "The path contains an encoded semicolon."
        case UInt8(ascii: "%"):
            // `%252e` is `%2e` after one decoding and `.` after a second one.
            return "The path contains an encoded percent sign (double encoding)."
        default:
            return nil
        }
    }

    /// The byte an escape at `index` stands for; nil when `index` does not start a valid `%XX`.
    @inline(__always)
    static func escapedByte(in path: UnsafeRawBufferPointer, at index: Int) -> UInt8? {
        guard index + 2 < path.count, path[index] == UInt8(ascii: "%"),
              let high = PercentDecoding.hexValue(path[index + 1]),
              let low = PercentDecoding.hexValue(path[index + 2]) else { return nil }
        return high << 4 | low
    }

    /// A segment's name ends at its first `;` (path parameters, `nameEnd`): `..;x` is `..` to
    /// servlet containers, so it is refused like `..`.
    private static func segmentProblem(_ path: UnsafeRawBufferPointer, _ start: Int, _ nameEnd: Int, _ segmentEnd: Int,
                                       last: Bool = false) -> String? {
        if nameEnd == start && segmentEnd > start {
            return nil  // a segment of parameters only (";x") is not a dot segment
        }
        let length = nameEnd - start
        if length == 0 {
            // An empty final segment is a trailing slash ("/content/"); anywhere else it is "//".
            return last ? nil : "The path contains an empty segment (//)."
        }
        if path[start] == UInt8(ascii: ".") && (length == 1 || (length == 2 && path[start + 1] == UInt8(ascii: "."))) {
            return "The path contains a . or .. segment."
        }
        return nil
    }
}
