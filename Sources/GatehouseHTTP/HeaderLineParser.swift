import Glibc

/// Parses one header line (`field-name ":" OWS field-value OWS`, RFC 9112 §5) of a head whose
/// bytes `HeadScanner` already checked: no control bytes, no bare CR or LF.
enum HeaderLineParser {
    enum Failure: Error, Equatable {
        case obsoleteLineFolding
        case emptyName
        case whitespaceBeforeColon
        case invalidNameByte
        case missingColon

        var reason: String {
            switch self {
            case .obsoleteLineFolding: return "Obsolete line folding is not allowed."
            case .emptyName: return "A header field has an empty name."
            case .whitespaceBeforeColon: return "Whitespace between a header name and its colon is not allowed."
            case .invalidNameByte: return "A header field name contains an invalid character."
            case .missingColon: return "A header line has no colon."
            }
        }
    }

    /// Parses `buffer[start..<end]` (the line without its CRLF).
    @inline(__always)
    static func parse(_ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Result<HeaderField, Failure> {
        if start < end, ASCII.isWhitespace(buffer[start]) { return .failure(.obsoleteLineFolding) }
        var index = start
        while index < end, ASCII.isTokenByte(buffer[index]) { index += 1 }
        guard index < end else { return .failure(start == end ? .emptyName : .missingColon) }
        let separator = buffer[index]
        guard separator == ASCII.colon else {
            return .failure(ASCII.isWhitespace(separator) ? .whitespaceBeforeColon : .invalidNameByte)
        }
        guard index > start else { return .failure(.emptyName) }
        let name = start..<index
        let value = trimmedRange(buffer, from: index + 1, to: end)
        return .success(HeaderField(name: name, value: value))
    }

    /// `start..<end` without leading and trailing SP/HTAB.
    @inline(__always)
    static func trimmedRange(_ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Range<Int> {
        var lower = start
        var upper = end
        while lower < upper, ASCII.isWhitespace(buffer[lower]) { lower += 1 }
        while upper > lower, ASCII.isWhitespace(buffer[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// Index of the CR that ends the line starting at `start`. `HeadScanner` guarantees one exists
    /// before the end of the head (the end of `buffer` is returned if not). `memchr`: values can
    /// be kilobytes (tokens, cookies), and the C library's vector search reads many bytes per
    /// instruction where a loop reads one.
    @inline(__always)
    static func lineEnd(_ buffer: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = buffer.baseAddress, start < buffer.count,
              let found = memchr(base + start, Int32(ASCII.cr), buffer.count - start) else { return buffer.count }
        return UnsafeRawPointer(found) - base
    }
}
