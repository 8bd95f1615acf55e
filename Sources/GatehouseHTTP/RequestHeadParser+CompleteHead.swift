/// The full parse of a request head whose end `HeadScanner` found: request line, header lines and
/// the framing, Host, Connection and Expect rules.
extension RequestHeadParser {
    func parseCompleteHead(_ buffer: UnsafeRawBufferPointer, lineStart: Int, end: Int) -> RequestParseResult {
        let lineEnd = HeaderLineParser.lineEnd(buffer, from: lineStart)
        guard lineEnd - lineStart <= limits.maxRequestLine else { return .invalid(Self.requestLineTooLong) }
        // Header lines with their CRLFs, without the final empty line.
        let headersStart = lineEnd + 2
        let headersEnd = end - 2
        guard headersEnd - headersStart <= limits.maxHeaderBytes else { return .invalid(Self.headerSectionTooLarge) }

        let line: RequestLineParser.Line
        switch RequestLineParser.parse(buffer, from: lineStart, to: lineEnd) {
        case .success(let parsed): line = parsed
        case .failure(let error): return .invalid(error)
        }

        var rules = RequestFieldRules(version: line.version)
        var headers: [HeaderField] = []
        // One allocation for typical requests instead of growing 1, 2, 4, 8, 16.
        headers.reserveCapacity(min(limits.maxHeaders, 16))
        var start = headersStart
        while start < headersEnd {
            let fieldEnd = HeaderLineParser.lineEnd(buffer, from: start)
            guard headers.count < limits.maxHeaders else { return .invalid(Self.tooManyHeaders) }
            switch HeaderLineParser.parse(buffer, from: start, to: fieldEnd) {
            case .success(let field):
                if let error = rules.inspect(buffer, field) { return .invalid(error) }
                headers.append(field)
            case .failure(let failure):
                return .invalid(.badRequest(failure.reason))
            }
            start = fieldEnd + 2
        }

        let semantics: RequestFieldRules.Outcome
        // Consumed explicitly: a plain call copied the rules first (their Connection token list
        // retained and released again, and the copy itself), some 110 instructions per head.
        switch (consume rules).finish(buffer, methodKind: line.methodKind) {
        case .success(let outcome): semantics = outcome
        case .failure(let error): return .invalid(error)
        }

        let head = RequestHead(
            bytes: Array(UnsafeRawBufferPointer(rebasing: buffer[0..<end])),
            method: line.method, methodKind: line.methodKind, target: line.target, path: line.path,
            query: line.query, version: line.version, headers: headers, framing: semantics.framing,
            host: semantics.host, keepAlive: semantics.keepAlive, expectContinue: semantics.expectContinue,
            unsupportedExpectation: semantics.unsupportedExpectation,
            connectionOptions: semantics.connectionOptions, authorization: semantics.authorization)
        return .complete(head, consumed: end)
    }
}
