/// Strict, incremental HTTP/1.1 request-head parser (RFC 9112); the gateway's first line of
/// defence against request smuggling (README, "How a request is handled").
///
/// Call `parse` with every byte received so far for the current request and the same `scanned`
/// variable (0 for a new request). Work is O(n) over all calls: only new bytes are scanned for the
/// end of the head, and the full parse runs once, when the head is complete. Bytes that can never
/// be valid (control bytes, bare CR or LF, an over-long request line or head) are refused as soon
/// as they arrive, without waiting for the rest.
public struct RequestHeadParser: Sendable {
    /// Empty lines (CRLF) tolerated before a request line (RFC 9112 §2.2).
    public static let maxLeadingEmptyLines = 4

    public let limits: HTTPLimits

    public init(limits: HTTPLimits) {
        self.limits = limits
    }

    // MARK: - Parsing

    /// Parses the request head at the start of `buffer`.
    /// - Parameter scanned: how far previous calls for this request already looked; start at 0.
    public func parse(_ buffer: UnsafeRawBufferPointer, scanned: inout Int) -> RequestParseResult {
        let lineStart: Int
        switch skipLeadingEmptyLines(buffer) {
        case .success(let start): lineStart = start
        case .failure(let error): return .invalid(error)
        }
        guard lineStart < buffer.count else { return .incomplete }

        let scanner = HeadScanner(lineStart: lineStart, maxFirstLine: limits.maxRequestLine,
                                  maxHeadBytes: maxHeadBytes)
        switch scanner.scan(buffer, from: scanned) {
        case .incomplete(let position):
            scanned = position
            return .incomplete
        case .complete(let end):
            scanned = end
            return parseCompleteHead(buffer, lineStart: lineStart, end: end)
        case .bareCR:
            return .invalid(.badRequest("A CR not followed by LF is not allowed."))
        case .bareLF:
            return .invalid(.badRequest("Lines must end with CRLF; a bare LF is not allowed."))
        case .controlByte:
            return .invalid(.badRequest("The request head contains a control character."))
        case .firstLineTooLong:
            return .invalid(Self.requestLineTooLong)
        case .headTooLarge:
            return .invalid(Self.headerSectionTooLarge)
        }
    }

    /// The largest head the limits allow: the request line and its CRLF, the header section (whose
    /// lines count their own CRLFs) and the final empty line.
    private var maxHeadBytes: Int {
        let (total, overflow) = limits.maxRequestLine.addingReportingOverflow(limits.maxHeaderBytes)
        return overflow || total > Int.max - 4 ? Int.max : total + 4
    }

    /// The index of the request line after at most `maxLeadingEmptyLines` CRLFs. A lone CR at
    /// the end of the buffer is left for the scanner, which waits for the byte after it.
    private func skipLeadingEmptyLines(_ buffer: UnsafeRawBufferPointer) -> Result<Int, HTTPRequestError> {
        var index = 0
        var emptyLines = 0
        while index + 1 < buffer.count, buffer[index] == ASCII.cr, buffer[index + 1] == ASCII.lf {
            emptyLines += 1
            if emptyLines > Self.maxLeadingEmptyLines {
                return .failure(.badRequest("Too many empty lines before the request line."))
            }
            index += 2
        }
        return .success(index)
    }

    // MARK: - Shared errors

    static let requestLineTooLong = HTTPRequestError(.uriTooLong, "The request line is too long.")
    static let headerSectionTooLarge = HTTPRequestError(.headersTooLarge, "The request header section is too large.")
    static let tooManyHeaders = HTTPRequestError(.headersTooLarge, "The request has too many header fields.")
}
