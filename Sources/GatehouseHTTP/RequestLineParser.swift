/// Parses `method SP request-target SP HTTP-version` (RFC 9112 §3) with exactly one SP between
/// the parts, an origin-form target and a version of exactly `HTTP/1.1` or `HTTP/1.0`.
struct RequestLineParser {
    struct Line {
        var method: Range<Int>
        var methodKind: HTTPMethod
        var target: Range<Int>
        var path: Range<Int>
        var query: Range<Int>?
        var version: HTTPVersion
    }

    // MARK: - Parsing

    /// Parses `buffer[start..<end]`, the request line without its CRLF.
    static func parse(_ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Result<Line, HTTPRequestError> {
        var index = start
        while index < end, ASCII.isTokenByte(buffer[index]) { index += 1 }
        let method = start..<index
        guard !method.isEmpty, index < end, buffer[index] == ASCII.space else {
            return .failure(.badRequest("The request method is not a valid token."))
        }
        index += 1

        let targetStart = index
        guard index < end, buffer[index] == ASCII.slash else {
            if index < end, buffer[index] == ASCII.space {
                return .failure(.badRequest("The request line must separate its parts with single spaces."))
            }
            return .failure(.badRequest("The request target must be an absolute path (origin-form)."))
        }
        var questionMark: Int?
        while index < end {
            index = skipPlainTargetBytes(buffer, from: index, to: end)
            guard index < end else { break }
            let byte = buffer[index]
            if byte == ASCII.space { break }
            guard ASCII.isVisible(byte), byte != ASCII.hash else {
                return .failure(.badRequest("The request target contains an invalid character."))
            }
            if byte == ASCII.questionMark, questionMark == nil { questionMark = index }
            index += 1
        }
        let target = targetStart..<index
        guard index < end else {
            return .failure(.badRequest("The request line has no HTTP version."))
        }
        index += 1

        guard let version = parseVersion(buffer, from: index, to: end) else {
            if index < end, buffer[index] == ASCII.space {
                return .failure(.badRequest("The request line must separate its parts with single spaces."))
            }
            return .failure(.badRequest("The HTTP version must be HTTP/1.1 or HTTP/1.0."))
        }

        let path = targetStart..<(questionMark ?? target.upperBound)
        let query = questionMark.map { ($0 + 1)..<target.upperBound }
        return .success(Line(method: method, methodKind: HTTPMethod.classify(buffer, method), target: target,
                             path: path, query: query, version: version))
    }

    /// The index of the first byte from `start` that the target loop must look at (SP, a
    /// control byte, DEL, obs-text, `#` or `?`), or where the whole words before `end` end:
    /// eight bytes per test (`ByteWord`).
    @inline(__always)
    private static func skipPlainTargetBytes(_ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var index = start
        while index + 8 <= end {
            let word = ByteWord.load(buffer, at: index)
            let flags = ByteWord.below(ASCII.space + 1, in: word) | ByteWord.nonASCII(in: word)
                | ByteWord.equal(to: ASCII.delete, in: word) | ByteWord.equal(to: ASCII.hash, in: word)
                | ByteWord.equal(to: ASCII.questionMark, in: word)
            if flags != 0 { return index + ByteWord.firstFlagged(flags) }
            index += 8
        }
        return index
    }

    /// `HTTP/1.1` or `HTTP/1.0`, exactly, filling `start..<end`.
    static func parseVersion(_ buffer: UnsafeRawBufferPointer, from start: Int, to end: Int) -> HTTPVersion? {
        guard end - start == 8 else { return nil }
        let prefix: StaticString = "HTTP/1."
        let matchesPrefix = prefix.withUTF8Buffer { expected -> Bool in
            for offset in 0..<expected.count where buffer[start + offset] != expected[offset] { return false }
            return true
        }
        guard matchesPrefix else { return nil }
        switch buffer[start + 7] {
        case 0x31: return .http11
        case 0x30: return .http10
        default: return nil
        }
    }
}
