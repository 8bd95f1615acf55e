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
        return segmentProblem(path, segmentStart, count, last: true)
    }

    private static func segmentProblem(_ path: UnsafeRawBufferPointer, _ start: Int, _ end: Int,
                                       last: Bool = false) -> String? {
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
