/// Parses `HTTP-version SP 3DIGIT [SP reason-phrase]` (RFC 9112 §4). The reason phrase may be empty
/// and its SP may be missing (`HTTP/1.1 200`), which some servers send. The status must be 100–599.
enum StatusLineParser {
    struct Line {
        var version: HTTPVersion
        var status: Int
        var reason: Range<Int>
    }

    /// Parses `buffer[0..<end]`, the status line without its CRLF.
    static func parse(_ buffer: UnsafeRawBufferPointer, to end: Int) -> Line? {
        guard end >= 12, let version = RequestLineParser.parseVersion(buffer, from: 0, to: 8),
              buffer[8] == ASCII.space else { return nil }
        var status = 0
        for index in 9..<12 {
            let byte = buffer[index]
            guard ASCII.isDigit(byte) else { return nil }
            status = status * 10 + Int(byte &- 0x30)
        }
        guard (100...599).contains(status) else { return nil }
        if end == 12 { return Line(version: version, status: status, reason: 12..<12) }
        guard buffer[12] == ASCII.space else { return nil }
        // HeadScanner already refused control bytes; the remaining bytes are HTAB, SP, VCHAR or obs-text.
        return Line(version: version, status: status, reason: 13..<end)
    }
}
