/// Strict, incremental HTTP/1.x response-head parser for upstream responses (RFC 9112 §4, §6.3).
/// It is used like `RequestHeadParser`: call `parse` with every byte received so far and the same
/// `scanned` variable (0 for a new response, including after a 1xx interim response).
public struct ResponseHeadParser: Sendable {
    public static let defaultMaxHeadBytes = 64 * 1024

    /// The largest head accepted: status line, header lines and the final empty line.
    public let maxHeadBytes: Int

    public init(maxHeadBytes: Int = ResponseHeadParser.defaultMaxHeadBytes) {
        self.maxHeadBytes = maxHeadBytes
    }

    // MARK: - Parsing

    /// Parses the response head at the start of `buffer`.
    /// - Parameters:
    ///   - requestMethod: the method of the request this answers (a HEAD response has no body).
    ///   - scanned: how far previous calls for this response already looked; start at 0.
    public func parse(_ buffer: UnsafeRawBufferPointer, requestMethod: HTTPMethod, scanned: inout Int) -> ResponseParseResult {
        let scanner = HeadScanner(lineStart: 0, maxFirstLine: nil, maxHeadBytes: maxHeadBytes)
        switch scanner.scan(buffer, from: scanned) {
        case .incomplete(let position):
            scanned = position
            return .incomplete
        case .complete(let end):
            scanned = end
            return parseCompleteHead(buffer, end: end, requestMethod: requestMethod)
        case .bareCR:
            return .invalid(reason: "The upstream response head contains a CR not followed by LF.")
        case .bareLF:
            return .invalid(reason: "The upstream response head contains a bare LF.")
        case .controlByte, .firstLineTooLong:
            return .invalid(reason: "The upstream response head contains a control character.")
        case .headTooLarge:
            return .invalid(reason: "The upstream response head is too large.")
        }
    }

    private func parseCompleteHead(_ buffer: UnsafeRawBufferPointer, end: Int, requestMethod: HTTPMethod) -> ResponseParseResult {
        let lineEnd = HeaderLineParser.lineEnd(buffer, from: 0)
        guard let statusLine = StatusLineParser.parse(buffer, to: lineEnd) else {
            return .invalid(reason: "The upstream status line is malformed.")
        }

        var rules = ResponseFieldRules(version: statusLine.version)
        var headers: [HeaderField] = []
        // One allocation for typical responses instead of growing 1, 2, 4, 8, 16.
        headers.reserveCapacity(16)
        var start = lineEnd + 2
        let headersEnd = end - 2
        while start < headersEnd {
            let fieldEnd = HeaderLineParser.lineEnd(buffer, from: start)
            switch HeaderLineParser.parse(buffer, from: start, to: fieldEnd) {
            case .success(let field):
                if let reason = rules.inspect(buffer, field) { return .invalid(reason: reason) }
                headers.append(field)
            case .failure(let failure):
                return .invalid(reason: "Upstream response: " + failure.reason)
            }
            start = fieldEnd + 2
        }

        let contentType = rules.contentType
        let outcome: ResponseFieldRules.Outcome
        // Consumed explicitly, not copied first (`RequestHeadParser.parseCompleteHead` says why).
        switch (consume rules).finish(status: statusLine.status, requestMethod: requestMethod) {
        case .success(let value): outcome = value
        case .failure(let failure): return .invalid(reason: failure.reason)
        }

        let head = ResponseHead(
            bytes: Array(UnsafeRawBufferPointer(rebasing: buffer[0..<end])), status: statusLine.status,
            reason: statusLine.reason, version: statusLine.version, headers: headers, framing: outcome.framing,
            keepAlive: outcome.keepAlive, connectionOptions: outcome.connectionOptions, contentType: contentType)
        return .complete(head, consumed: end)
    }
}
