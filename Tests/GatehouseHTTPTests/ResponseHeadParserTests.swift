import Testing
@testable import GatehouseHTTP

/// One row of the upstream response contract.
struct ResponseCase: Sendable, CustomTestStringConvertible {
    enum Verdict: Sendable, Equatable {
        case accepted(ResponseBodyFraming, keepAlive: Bool)
        case invalid
        case incomplete
    }

    let name: String
    let raw: String
    let method: HTTPMethod
    let verdict: Verdict

    init(_ name: String, _ raw: String, method: HTTPMethod = .post, _ verdict: Verdict) {
        self.name = name
        self.raw = raw
        self.method = method
        self.verdict = verdict
    }

    var testDescription: String { name }
}

@Suite("Upstream response heads (RFC 9112 §4, §6.3; README: How a request is handled)")
struct ResponseHeadParserTests {
    static let cases: [ResponseCase] = [
        // Status line
        ResponseCase("200 with length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n", .accepted(.contentLength(5), keepAlive: true)),
        ResponseCase("status without reason or space", "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", .accepted(.contentLength(0), keepAlive: true)),
        ResponseCase("status with empty reason", "HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n", .accepted(.contentLength(0), keepAlive: true)),
        ResponseCase("reason with spaces and obs-text", "HTTP/1.1 404 Nicht Gef\u{FC}nden\r\nContent-Length: 0\r\n\r\n", .accepted(.contentLength(0), keepAlive: true)),
        ResponseCase("two-digit status", "HTTP/1.1 20 OK\r\n\r\n", .invalid),
        ResponseCase("four-digit status", "HTTP/1.1 2000 OK\r\n\r\n", .invalid),
        ResponseCase("status below 100", "HTTP/1.1 099 Low\r\n\r\n", .invalid),
        ResponseCase("status above 599", "HTTP/1.1 600 High\r\n\r\n", .invalid),
        ResponseCase("status not digits", "HTTP/1.1 2x0 OK\r\n\r\n", .invalid),
        ResponseCase("HTTP/2", "HTTP/2 200 OK\r\n\r\n", .invalid),
        ResponseCase("HTTP/2.0", "HTTP/2.0 200 OK\r\n\r\n", .invalid),
        ResponseCase("lowercase version", "http/1.1 200 OK\r\n\r\n", .invalid),
        ResponseCase("two spaces before status", "HTTP/1.1  200 OK\r\n\r\n", .invalid),
        ResponseCase("no space before reason", "HTTP/1.1 200OK\r\n\r\n", .invalid),
        ResponseCase("leading empty line", "\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", .invalid),
        ResponseCase("not HTTP at all", "SSH-2.0-OpenSSH\r\n\r\n", .invalid),

        // Header syntax
        ResponseCase("bare LF line end", "HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n", .invalid),
        ResponseCase("bare LF in header", "HTTP/1.1 200 OK\r\nContent-Length: 0\n\r\n", .invalid),
        ResponseCase("bare CR in value", "HTTP/1.1 200 OK\r\nX-A: a\rb\r\nContent-Length: 0\r\n\r\n", .invalid),
        ResponseCase("NUL in value", "HTTP/1.1 200 OK\r\nX-A: a\u{00}\r\nContent-Length: 0\r\n\r\n", .invalid),
        ResponseCase("whitespace before colon", "HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n", .invalid),
        ResponseCase("obs-fold", "HTTP/1.1 200 OK\r\nX-A: a\r\n b\r\nContent-Length: 0\r\n\r\n", .invalid),
        ResponseCase("obs-text in value", "HTTP/1.1 200 OK\r\nX-A: caf\u{E9}\r\nContent-Length: 0\r\n\r\n", .accepted(.contentLength(0), keepAlive: true)),
        ResponseCase("empty header name", "HTTP/1.1 200 OK\r\n: a\r\nContent-Length: 0\r\n\r\n", .invalid),

        // Framing
        ResponseCase("chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", .accepted(.chunked, keepAlive: true)),
        ResponseCase("Chunked, case-insensitive", "HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\n", .accepted(.chunked, keepAlive: true)),
        ResponseCase("gzip, chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .invalid),
        ResponseCase("chunked, gzip", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", .invalid),
        ResponseCase("identity", "HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\n\r\n", .invalid),
        ResponseCase("Transfer-Encoding twice", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", .invalid),
        ResponseCase("TE with CL", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", .invalid),
        ResponseCase("CL with TE", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", .invalid),
        ResponseCase("TE in HTTP/1.0", "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", .invalid),
        ResponseCase("CL repeated with the same value", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\n", .accepted(.contentLength(5), keepAlive: true)),
        ResponseCase("CL repeated with differing values", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", .invalid),
        ResponseCase("CL list", "HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n", .invalid),
        ResponseCase("CL not digits", "HTTP/1.1 200 OK\r\nContent-Length: five\r\n\r\n", .invalid),
        ResponseCase("CL negative", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", .invalid),
        ResponseCase("CL overflow", "HTTP/1.1 200 OK\r\nContent-Length: 123456789012345678901\r\n\r\n", .invalid),
        ResponseCase("no framing: close-delimited", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n", .accepted(.closeDelimited, keepAlive: false)),
        ResponseCase("204 has no body", "HTTP/1.1 204 No Content\r\n\r\n", .accepted(.none, keepAlive: true)),
        ResponseCase("304 ignores its length", "HTTP/1.1 304 Not Modified\r\nContent-Length: 100\r\n\r\n", .accepted(.none, keepAlive: true)),
        ResponseCase("100 Continue is interim", "HTTP/1.1 100 Continue\r\n\r\n", .accepted(.none, keepAlive: true)),
        ResponseCase("answer to HEAD has no body", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", method: .head, .accepted(.none, keepAlive: true)),
        ResponseCase("chunked answer to HEAD has no body", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", method: .head, .accepted(.none, keepAlive: true)),
        ResponseCase("framing conflicts refused even for HEAD", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n", method: .head, .invalid),

        // Connection reuse
        ResponseCase("HTTP/1.1 Connection: close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", .accepted(.contentLength(0), keepAlive: false)),
        ResponseCase("Connection: CLOSE in capitals", "HTTP/1.1 200 OK\r\nConnection: CLOSE\r\nContent-Length: 0\r\n\r\n", .accepted(.contentLength(0), keepAlive: false)),
        ResponseCase("close in a list with keep-alive", "HTTP/1.1 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 0\r\n\r\n", .accepted(.contentLength(0), keepAlive: false)),
        ResponseCase("Connection value not a token", "HTTP/1.1 200 OK\r\nConnection: keep-alive; x\r\nContent-Length: 0\r\n\r\n", .invalid),
        ResponseCase("HTTP/1.0 default close", "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", .accepted(.contentLength(0), keepAlive: false)),
        ResponseCase("HTTP/1.0 keep-alive", "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n", .accepted(.contentLength(0), keepAlive: true)),
        ResponseCase("HTTP/1.0 close-delimited", "HTTP/1.0 200 OK\r\n\r\n", .accepted(.closeDelimited, keepAlive: false)),
        ResponseCase("Connection element not a token", "HTTP/1.1 200 OK\r\nConnection: a b\r\nContent-Length: 0\r\n\r\n", .invalid),

        // Partial heads
        ResponseCase("status line only", "HTTP/1.1 200 OK\r\n", .incomplete),
        ResponseCase("ends after final CR", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r", .incomplete),
    ]

    @Test(arguments: cases)
    func verdict(_ row: ResponseCase) {
        let result = parseResponseEveryWay(bytes(row.raw), requestMethod: row.method)
        switch (result, row.verdict) {
        case (.complete(let head, let consumed), .accepted(let framing, let keepAlive)):
            #expect(consumed == row.raw.utf8.count)
            #expect(head.framing == framing)
            #expect(head.keepAlive == keepAlive)
        case (.invalid(let reason), .invalid):
            #expect(!reason.isEmpty)
        case (.incomplete, .incomplete):
            break
        default:
            Issue.record("expected \(row.verdict), got \(result)")
        }
    }

    @Test func fieldsPointAtTheReceivedBytes() throws {
        let head = "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nConnection: X-Upstream-Debug\r\n"
            + "X-Upstream-Debug: 1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n"
        let result = parseResponseEveryWay(bytes(head + "{}"))
        guard case .complete(let response, let consumed) = result else {
            Issue.record("expected a complete head, got \(result)")
            return
        }
        #expect(consumed == head.utf8.count)
        #expect(response.bytes == bytes(head))
        #expect(response.status == 401)
        #expect(response.string(response.reason) == "Unauthorized")
        #expect(response.version == .http11)
        #expect(!response.isInterim)
        #expect(response.headerValue(named: HeaderNames.contentType).map(response.string) == "application/json")
        #expect(response.headerCount(named: "www-authenticate") == 1)
        #expect(response.connectionOptions.map(response.string) == ["X-Upstream-Debug"])
        let forwarded = response.headers.filter { !response.isHopByHop($0) }.map { response.string($0.name) }
        #expect(forwarded == ["WWW-Authenticate", "Content-Type", "Content-Length"])
        #expect(response.contentType.map(response.string) == "application/json")
    }

    /// The Content-Type the parser notes is the first, found in any case; none without one.
    @Test(arguments: [
        ("Content-Type: text/event-stream\r\n", "text/event-stream"),
        ("content-TYPE: a/b\r\nContent-Type: c/d\r\n", "a/b"),
        ("X-Content-Type: x/y\r\nContent-Typo: t/u\r\n", nil),
    ] as [(String, String?)])
    func theFirstContentTypeIsNotedWhileParsing(_ fields: String, _ expected: String?) {
        let result = parseResponseEveryWay(bytes("HTTP/1.1 200 OK\r\n" + fields + "Content-Length: 0\r\n\r\n"))
        guard case .complete(let response, _) = result else {
            Issue.record("expected a complete head, got \(result)")
            return
        }
        #expect(response.contentType.map(response.string) == expected)
        #expect(response.contentType == response.headerValue(named: HeaderNames.contentType))
    }

    @Test func interimResponseThenFinalOnTheSameStream() {
        let interim = "HTTP/1.1 100 Continue\r\n\r\n"
        let final = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
        var buffer = bytes(interim + final)
        let parser = ResponseHeadParser()
        var scanned = 0
        let first = buffer.withUnsafeBytes { parser.parse($0, requestMethod: .post, scanned: &scanned) }
        guard case .complete(let head, let consumed) = first else {
            Issue.record("expected the interim head, got \(first)")
            return
        }
        #expect(head.isInterim)
        #expect(consumed == interim.utf8.count)
        buffer.removeFirst(consumed)
        scanned = 0
        let second = buffer.withUnsafeBytes { parser.parse($0, requestMethod: .post, scanned: &scanned) }
        guard case .complete(let finalHead, _) = second else {
            Issue.record("expected the final head, got \(second)")
            return
        }
        #expect(finalHead.status == 200)
    }

    @Test(arguments: [(0, true), (1, false)])
    func headSizeLimit(_ over: Int, _ accepted: Bool) {
        let base = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: \r\n\r\n"
        let maxHeadBytes = 200
        let raw = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: "
            + String(repeating: "p", count: maxHeadBytes - base.utf8.count + over) + "\r\n\r\n"
        let result = parseResponseEveryWay(bytes(raw), maxHeadBytes: maxHeadBytes)
        if accepted {
            guard case .complete(_, let consumed) = result else {
                Issue.record("expected a head of exactly the limit to pass, got \(result)")
                return
            }
            #expect(consumed == maxHeadBytes)
        } else {
            #expect(result == .invalid(reason: "The upstream response head is too large."))
        }
    }

    @Test func endlessHeadIsRefusedBeforeItsEnd() {
        let raw = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-A: b\r\n", count: 50)
        #expect(parseResponseEveryWay(bytes(raw), maxHeadBytes: 128) == .invalid(reason: "The upstream response head is too large."))
    }
}
