import Testing
@testable import GatehouseHTTP

@Suite("Request heads on a stream: limits, early refusal, pipelining")
struct RequestHeadParserStreamTests {
    /// Small limits so the boundaries are easy to build.
    static let limits = HTTPLimits(maxRequestLine: 32, maxHeaderBytes: 64, maxHeaders: 3)

    /// A request line of exactly `length` bytes.
    static func requestLine(length: Int) -> String {
        let fixed = "GET / HTTP/1.1".utf8.count
        return "GET /" + String(repeating: "a", count: length - fixed) + " HTTP/1.1"
    }

    /// A header line of exactly `length` bytes including its CRLF.
    static func headerLine(length: Int, name: String = "X-Pad") -> String {
        name + ": " + String(repeating: "p", count: length - name.utf8.count - 4) + "\r\n"
    }

    // MARK: - Limits, exactly at and one over

    @Test(arguments: [
        (32, RequestCase.Verdict.accepted),
        (33, .uriTooLong),
    ])
    func requestLineLimit(_ length: Int, _ expected: RequestCase.Verdict) {
        let raw = Self.requestLine(length: length) + "\r\nHost: a\r\n\r\n"
        let result = parseRequestEveryWay(bytes(raw), limits: Self.limits)
        #expect(RequestHeadParserSyntaxTests.verdict(of: result, inputCount: raw.utf8.count) == expected)
    }

    @Test(arguments: [
        (64, RequestCase.Verdict.accepted),
        (65, .headersTooLarge),
    ])
    func headerBytesLimit(_ total: Int, _ expected: RequestCase.Verdict) {
        let host = "Host: a\r\n"
        let raw = "GET / HTTP/1.1\r\n" + host + Self.headerLine(length: total - host.utf8.count) + "\r\n"
        let result = parseRequestEveryWay(bytes(raw), limits: Self.limits)
        #expect(RequestHeadParserSyntaxTests.verdict(of: result, inputCount: raw.utf8.count) == expected)
    }

    @Test(arguments: [
        (3, RequestCase.Verdict.accepted),
        (4, .headersTooLarge),
    ])
    func headerCountLimit(_ count: Int, _ expected: RequestCase.Verdict) {
        let extra = (1..<count).map { "X-\($0): v\r\n" }.joined()
        let raw = "GET / HTTP/1.1\r\nHost: a\r\n" + extra + "\r\n"
        let result = parseRequestEveryWay(bytes(raw), limits: Self.limits)
        #expect(RequestHeadParserSyntaxTests.verdict(of: result, inputCount: raw.utf8.count) == expected)
    }

    @Test func defaultLimitsAcceptAHundredHeadersAndRefuseMore() {
        let hundred = "GET / HTTP/1.1\r\nHost: a\r\n" + (1..<100).map { "X-\($0): v\r\n" }.joined() + "\r\n"
        #expect(RequestHeadParserSyntaxTests.verdict(of: parseRequestEveryWay(bytes(hundred)), inputCount: hundred.utf8.count) == .accepted)
        let more = "GET / HTTP/1.1\r\nHost: a\r\n" + (1...100).map { "X-\($0): v\r\n" }.joined() + "\r\n"
        #expect(RequestHeadParserSyntaxTests.verdict(of: parseRequestEveryWay(bytes(more)), inputCount: more.utf8.count) == .headersTooLarge)
    }

    // MARK: - Early refusal while incomplete

    @Test func overlongRequestLineIsRefusedBeforeItsEnd() {
        let prefix = "GET /" + String(repeating: "a", count: 40)
        #expect(parseRequestEveryWay(bytes(prefix), limits: Self.limits) == .invalid(RequestHeadParser.requestLineTooLong))
        // One byte short of proving the line too long: still waiting.
        let almost = String(Self.requestLine(length: 33).prefix(32))
        #expect(parseRequestEveryWay(bytes(almost), limits: Self.limits) == .incomplete)
    }

    @Test func endlessHeaderSectionIsRefusedBeforeItsEnd() {
        let raw = "GET / HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 20)
        #expect(parseRequestEveryWay(bytes(raw), limits: Self.limits) == .invalid(RequestHeadParser.headerSectionTooLarge))
    }

    @Test func theFirstProblemOnTheWireDecides() {
        // The request line is already too long before the NUL arrives.
        let longThenNUL = "GET /" + String(repeating: "a", count: 40) + " HTTP/1.1\r\nX: \u{00}\r\n\r\n"
        #expect(parseRequestEveryWay(bytes(longThenNUL), limits: Self.limits) == .invalid(RequestHeadParser.requestLineTooLong))
        // A NUL before the line grows too long is a bad request.
        let nulThenLong = "GET /\u{00}" + String(repeating: "a", count: 40)
        let result = parseRequestEveryWay(bytes(nulThenLong), limits: Self.limits)
        guard case .invalid(let error) = result else {
            Issue.record("expected a refusal, got \(result)")
            return
        }
        #expect(error.kind == .badRequest)
    }

    @Test func largeHeadTrickledByteByByteScansEachByteOnce() {
        let limits = HTTPLimits(maxRequestLine: 8 * 1024, maxHeaderBytes: 256 * 1024, maxHeaders: 10_000)
        let raw = bytes("POST /graphql HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X-Filler: abcdefghijklmnop\r\n", count: 5_000)
            + "Content-Length: 3\r\n\r\n")
        let result = feedRequest(raw, limits: limits, split: .byteByByte)
        guard case .complete(let head, let consumed) = result else {
            Issue.record("expected a complete head, got \(result)")
            return
        }
        #expect(consumed == raw.count)
        #expect(head.headers.count == 5_002)
        #expect(head.framing == .contentLength(3))
    }

    // MARK: - Pipelining and bodies after the head

    @Test func pipelinedRequestsAreConsumedExactly() throws {
        let first = "GET /one HTTP/1.1\r\nHost: a\r\n\r\n"
        let second = "GET /two HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        var buffer = bytes(first + second)
        let parser = RequestHeadParser(limits: HTTPLimits())
        var scanned = 0
        let one = buffer.withUnsafeBytes { parser.parse($0, scanned: &scanned) }
        guard case .complete(let firstHead, let firstConsumed) = one else {
            Issue.record("expected the first head, got \(one)")
            return
        }
        #expect(firstConsumed == first.utf8.count)
        #expect(firstHead.string(firstHead.path) == "/one")
        #expect(firstHead.bytes == bytes(first))

        buffer.removeFirst(firstConsumed)
        scanned = 0
        let two = buffer.withUnsafeBytes { parser.parse($0, scanned: &scanned) }
        guard case .complete(let secondHead, let secondConsumed) = two else {
            Issue.record("expected the second head, got \(two)")
            return
        }
        #expect(secondConsumed == second.utf8.count)
        #expect(secondHead.string(secondHead.path) == "/two")
        #expect(!secondHead.keepAlive)
    }

    @Test func headStopsBeforeItsBodyAndTheNextRequest() {
        let head = "POST /graphql HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n"
        let raw = bytes(head + "hello" + "GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        let result = parseRequestEveryWay(raw)
        guard case .complete(let parsed, let consumed) = result else {
            Issue.record("expected a complete head, got \(result)")
            return
        }
        #expect(consumed == head.utf8.count)
        #expect(parsed.bytes == bytes(head))
    }

    @Test func bytesAfterTheHeadAreNeverJudged() {
        // A control byte in the body must not refuse a valid head.
        let head = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n"
        let result = parseRequestEveryWay(bytes(head + "\u{00}\n\r"))
        guard case .complete(_, let consumed) = result else {
            Issue.record("expected a complete head, got \(result)")
            return
        }
        #expect(consumed == head.utf8.count)
    }
}
