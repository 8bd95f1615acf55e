import GatehouseHTTP

/// SPEC §3.2: routing happens on the exact bytes that will be forwarded, so anything another
/// hop could read differently is refused rather than normalized.
public enum PathValidator {
    /// nil when `path` (the request target before any `?`) is acceptable; else why it is not.
    public static func problem(in path: UnsafeRawBufferPointer) -> String? {
        guard let first = path.first, first == UInt8(ascii: "/") else { return "The path must start with /." }
        let count = path.count
        var segmentStart = 1
        var i = 1
        // Escaped bytes above 0x7F must form valid UTF-8: an overlong form such as %c0%ae is a
        // `.` to a lenient decoder.
        var escapesNonASCII = false
        while i < count {
            let byte = path[i]
            switch byte {
            case 0x00...0x20, 0x7F...0xFF:
                return "The path contains a control, space or non-ASCII byte."
            case UInt8(ascii: "\\"):
                return "The path contains a backslash."
            case UInt8(ascii: "#"):
                return "The path contains a fragment."
            case UInt8(ascii: "%"):
                guard i + 2 < count, let high = PercentDecoding.hexValue(path[i + 1]), let low = PercentDecoding.hexValue(path[i + 2]) else {
                    return "The path contains an invalid percent-escape."
                }
                let decoded = high << 4 | low
                if decoded == UInt8(ascii: "/") || decoded == UInt8(ascii: "\\") || decoded == UInt8(ascii: ".")
                    || decoded == 0 || decoded < 0x20 || decoded == 0x7F {
                    return "The path contains an encoded slash, backslash, dot or control byte."
                }
                if decoded >= 0x80 { escapesNonASCII = true }
                i += 3
                continue
            case UInt8(ascii: "/"):
                if let why = segmentProblem(path, segmentStart, i) { return why }
                segmentStart = i + 1
            default:
                break
            }
            i += 1
        }
        if escapesNonASCII && PercentDecoding.decode(Array(path)[...], plusIsSpace: false) == nil {
            return "The path contains percent-escapes that are not valid UTF-8."
        }
        return segmentProblem(path, segmentStart, count, last: true)
    }

    /// A segment's name ends at its first `;` (path parameters): `..;x` is `..` to servlet
    /// containers, so it is refused like `..`.
    private static func segmentProblem(_ path: UnsafeRawBufferPointer, _ start: Int, _ segmentEnd: Int,
                                       last: Bool = false) -> String? {
        var end = start
        while end < segmentEnd && path[end] != UInt8(ascii: ";") { end += 1 }
        if end == start && segmentEnd > start {
            return nil  // a segment of parameters only (";x") is not a dot segment
        }
        let length = end - start
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
