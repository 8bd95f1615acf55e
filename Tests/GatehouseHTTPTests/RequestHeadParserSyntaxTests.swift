import Testing
@testable import GatehouseHTTP

/// One row of the request contract: raw bytes in, the verdict out. Every row runs whole, byte by
/// byte and in random splits, and all must agree.
struct RequestCase: Sendable, CustomTestStringConvertible {
    enum Verdict: Sendable, Equatable {
        case accepted
        case badRequest
        case uriTooLong
        case headersTooLarge
        case incomplete
    }

    let name: String
    let raw: String
    let verdict: Verdict

    init(_ name: String, _ raw: String, _ verdict: Verdict) {
        self.name = name
        self.raw = raw
        self.verdict = verdict
    }

    var testDescription: String { name }
}

/// A GET head with a Host and `extra` header lines.
private func get(_ extra: String = "") -> String {
    "GET / HTTP/1.1\r\nHost: example.com\r\n\(extra)\r\n"
}

/// A POST head with a Host and `extra` header lines.
private func post(_ extra: String) -> String {
    "POST /graphql HTTP/1.1\r\nHost: example.com\r\n\(extra)\r\n"
}

@Suite("Request head syntax and framing (RFC 9112, README: How a request is handled)")
struct RequestHeadParserSyntaxTests {
    static let requestLine: [RequestCase] = [
        RequestCase("minimal GET", get(), .accepted),
        RequestCase("POST with a query", "POST /graphql?op=a&b=%20 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n", .accepted),
        RequestCase("HTTP/1.0 without Host", "GET / HTTP/1.0\r\n\r\n", .accepted),
        RequestCase("HTTP/1.0 with Host", "GET / HTTP/1.0\r\nHost: a\r\n\r\n", .accepted),
        RequestCase("extension method", "PURGE /x HTTP/1.1\r\nHost: a\r\n\r\n", .accepted),
        RequestCase("lowercase method is a valid token", "get / HTTP/1.1\r\nHost: a\r\n\r\n", .accepted),
        RequestCase("method with invalid character", "GE(T / HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("empty method", " / HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("two spaces after method", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("two spaces before version", "GET /  HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("space after version", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("tab as separator", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("missing version", "GET /\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("missing target", "GET HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("asterisk-form", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("absolute-form", "GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("authority-form", "CONNECT a:443 HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("fragment in target", "GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("non-ASCII in target", "GET /caf\u{E9} HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("HTTP/2.0", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("HTTP/1.2", "GET / HTTP/1.2\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("HTTP/1.10", "GET / HTTP/1.10\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("lowercase version", "GET / http/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("HTTP/0.9 style line", "GET /\r\n\r\n", .badRequest),
        RequestCase("one leading empty line", "\r\n" + get(), .accepted),
        RequestCase("four leading empty lines", String(repeating: "\r\n", count: 4) + get(), .accepted),
        RequestCase("five leading empty lines", String(repeating: "\r\n", count: 5) + get(), .badRequest),
        RequestCase("leading bare LF", "\n" + get(), .badRequest),
        RequestCase("leading bare CR", "\rGET / HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("request line ends in bare LF", "GET / HTTP/1.1\nHost: a\r\n\r\n", .badRequest),
        RequestCase("CR CR LF after request line", "GET / HTTP/1.1\r\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("NUL in target", "GET /a\u{00}b HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest),
    ]

    static let headerSyntax: [RequestCase] = [
        RequestCase("space before colon", get("X-A : b\r\n"), .badRequest),
        RequestCase("tab before colon", get("X-A\t: b\r\n"), .badRequest),
        RequestCase("space before colon on Host", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", .badRequest),
        RequestCase("space before colon on Content-Length", post("Content-Length : 5\r\n"), .badRequest),
        RequestCase("obs-fold with space", get("X-A: b\r\n c\r\n"), .badRequest),
        RequestCase("obs-fold with tab", get("X-A: b\r\n\tc\r\n"), .badRequest),
        RequestCase("first header line starts with space", "GET / HTTP/1.1\r\n Host: a\r\n\r\n", .badRequest),
        RequestCase("header line ends in bare LF", get("X-A: b\n"), .badRequest),
        RequestCase("bare LF terminator", "GET / HTTP/1.1\r\nHost: a\r\n\n", .badRequest),
        RequestCase("LF CR LF terminator", "GET / HTTP/1.1\r\nHost: a\n\r\n", .badRequest),
        RequestCase("bare CR inside value", get("X-A: b\rc\r\n"), .badRequest),
        RequestCase("NUL in value", get("X-A: b\u{00}c\r\n"), .badRequest),
        RequestCase("NUL in name", get("X-\u{00}A: b\r\n"), .badRequest),
        RequestCase("SOH in value", get("X-A: \u{01}\r\n"), .badRequest),
        RequestCase("ESC in value", get("X-A: a\u{1B}[0m\r\n"), .badRequest),
        RequestCase("DEL in value", get("X-A: a\u{7F}\r\n"), .badRequest),
        RequestCase("vertical tab in value", get("X-A: a\u{0B}b\r\n"), .badRequest),
        RequestCase("form feed in value", get("X-A: a\u{0C}b\r\n"), .badRequest),
        RequestCase("obs-text in value", get("X-Name: Jos\u{E9}\r\n"), .accepted),
        RequestCase("tab inside value", get("X-A: a\tb\r\n"), .accepted),
        RequestCase("empty value", get("X-Empty:\r\n"), .accepted),
        RequestCase("value of whitespace only", get("X-Empty: \t \r\n"), .accepted),
        RequestCase("empty name", get(": value\r\n"), .badRequest),
        RequestCase("line without colon", get("X-A value\r\n"), .badRequest),
        RequestCase("name with parenthesis", get("X(A): b\r\n"), .badRequest),
        RequestCase("name with non-ASCII byte", get("X-\u{E9}: b\r\n"), .badRequest),
        RequestCase("name with every tchar", get("!#$%&'*+-.^_`|~09AZaz: b\r\n"), .accepted),
        RequestCase("colon in value", get("X-A: b:c\r\n"), .accepted),
    ]

    static let framing: [RequestCase] = [
        RequestCase("Content-Length", post("Content-Length: 5\r\n"), .accepted),
        RequestCase("Content-Length zero", post("Content-Length: 0\r\n"), .accepted),
        RequestCase("Content-Length leading zeros", post("Content-Length: 005\r\n"), .accepted),
        RequestCase("Content-Length with OWS", post("Content-Length:  5 \t\r\n"), .accepted),
        RequestCase("Content-Length list", post("Content-Length: 5, 5\r\n"), .badRequest),
        RequestCase("Content-Length list without space", post("Content-Length: 5,5\r\n"), .badRequest),
        RequestCase("Content-Length plus sign", post("Content-Length: +5\r\n"), .badRequest),
        RequestCase("Content-Length negative", post("Content-Length: -1\r\n"), .badRequest),
        RequestCase("Content-Length inner space", post("Content-Length: 5 5\r\n"), .badRequest),
        RequestCase("Content-Length empty", post("Content-Length:\r\n"), .badRequest),
        RequestCase("Content-Length hex", post("Content-Length: 0x5\r\n"), .badRequest),
        RequestCase("Content-Length decimal point", post("Content-Length: 5.0\r\n"), .badRequest),
        RequestCase("Content-Length 2^53", post("Content-Length: 9007199254740992\r\n"), .accepted),
        RequestCase("Content-Length 2^53+1", post("Content-Length: 9007199254740993\r\n"), .badRequest),
        RequestCase("Content-Length overflowing Int", post("Content-Length: 99999999999999999999999\r\n"), .badRequest),
        RequestCase("Content-Length repeated equal", post("Content-Length: 5\r\nContent-Length: 5\r\n"), .badRequest),
        RequestCase("Content-Length repeated differing", post("Content-Length: 5\r\nContent-Length: 6\r\n"), .badRequest),
        RequestCase("Content-Length repeated, other case", post("Content-Length: 5\r\ncontent-length: 5\r\n"), .badRequest),
        // Content-Type decides how the body is read (JSON or multipart): one copy only.
        RequestCase("Content-Type repeated", post("Content-Type: application/json\r\ncontent-type: multipart/form-data; boundary=a\r\n"),
                    .badRequest),
        RequestCase("Content-Type once", post("Content-Type: application/json\r\n"), .accepted),
        RequestCase("chunked", post("Transfer-Encoding: chunked\r\n"), .accepted),
        RequestCase("Chunked (case-insensitive)", post("Transfer-Encoding: Chunked\r\n"), .accepted),
        RequestCase("CHUNKED", post("transfer-encoding: CHUNKED\r\n"), .accepted),
        RequestCase("chunked with trailing space (OWS)", post("Transfer-Encoding: chunked \r\n"), .accepted),
        RequestCase("chunked with leading tab (OWS)", post("Transfer-Encoding:\tchunked\r\n"), .accepted),
        RequestCase("xchunked", post("Transfer-Encoding: xchunked\r\n"), .badRequest),
        RequestCase("chunkedx", post("Transfer-Encoding: chunkedx\r\n"), .badRequest),
        RequestCase("chunked, identity", post("Transfer-Encoding: chunked, identity\r\n"), .badRequest),
        RequestCase("gzip, chunked", post("Transfer-Encoding: gzip, chunked\r\n"), .badRequest),
        RequestCase("chunked, chunked", post("Transfer-Encoding: chunked, chunked\r\n"), .badRequest),
        RequestCase("identity", post("Transfer-Encoding: identity\r\n"), .badRequest),
        RequestCase("empty Transfer-Encoding", post("Transfer-Encoding:\r\n"), .badRequest),
        RequestCase("quoted chunked", post("Transfer-Encoding: \"chunked\"\r\n"), .badRequest),
        RequestCase("chunked with obs-fold", post("Transfer-Encoding:\r\n chunked\r\n"), .badRequest),
        RequestCase("Transfer-Encoding twice", post("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n"), .badRequest),
        RequestCase("TE then CL", post("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n"), .badRequest),
        RequestCase("CL then TE", post("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n"), .badRequest),
        RequestCase("Transfer-Encoding in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", .badRequest),
        RequestCase("space before colon on Transfer-Encoding", post("Transfer-Encoding : chunked\r\n"), .badRequest),
        RequestCase("GET with a body length", get("Content-Length: 5\r\n"), .badRequest),
        RequestCase("GET with Content-Length 0", get("Content-Length: 0\r\n"), .accepted),
        RequestCase("HEAD with chunked body", "HEAD / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", .badRequest),
        RequestCase("OPTIONS with a body", "OPTIONS / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n", .accepted),
    ]

    static let hostAndConnection: [RequestCase] = [
        RequestCase("HTTP/1.1 without Host", "GET / HTTP/1.1\r\nX-A: b\r\n\r\n", .badRequest),
        RequestCase("Host twice", "GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", .badRequest),
        RequestCase("Host twice in HTTP/1.0", "GET / HTTP/1.0\r\nHost: a\r\nhost: b\r\n\r\n", .badRequest),
        RequestCase("empty Host", "GET / HTTP/1.1\r\nHost:\r\n\r\n", .badRequest),
        RequestCase("Host with port", "GET / HTTP/1.1\r\nHost: api.example.com:8080\r\n\r\n", .accepted),
        RequestCase("Host IPv4", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", .accepted),
        RequestCase("Host IPv6 with port", "GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n", .accepted),
        RequestCase("Host IPv6 with embedded IPv4", "GET / HTTP/1.1\r\nHost: [::ffff:10.0.0.1]\r\n\r\n", .accepted),
        RequestCase("Host pct-encoded reg-name", "GET / HTTP/1.1\r\nHost: a%2Db\r\n\r\n", .accepted),
        RequestCase("Host unterminated IPv6", "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", .badRequest),
        RequestCase("Host IPvFuture", "GET / HTTP/1.1\r\nHost: [v1.x]\r\n\r\n", .badRequest),
        RequestCase("Host with inner space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", .badRequest),
        RequestCase("Host with userinfo", "GET / HTTP/1.1\r\nHost: user@a\r\n\r\n", .badRequest),
        RequestCase("Host with path", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", .badRequest),
        RequestCase("Host with two ports", "GET / HTTP/1.1\r\nHost: a:80:80\r\n\r\n", .badRequest),
        RequestCase("Host with empty port", "GET / HTTP/1.1\r\nHost: a:\r\n\r\n", .badRequest),
        RequestCase("Host port too large", "GET / HTTP/1.1\r\nHost: a:65536\r\n\r\n", .badRequest),
        RequestCase("Host port not digits", "GET / HTTP/1.1\r\nHost: a:http\r\n\r\n", .badRequest),
        RequestCase("Host bad pct-escape", "GET / HTTP/1.1\r\nHost: a%zz\r\n\r\n", .badRequest),
        RequestCase("Connection list", get("Connection: keep-alive, X-Trace\r\n"), .accepted),
        RequestCase("Connection list with empty elements", get("Connection: , close ,,\r\n"), .accepted),
        RequestCase("Connection element not a token", get("Connection: close, x y\r\n"), .badRequest),
        RequestCase("Expect 100-continue", post("Content-Length: 3\r\nExpect: 100-Continue\r\n"), .accepted),
        RequestCase("unknown Expect is reported, not refused", post("Content-Length: 3\r\nExpect: 200-ok\r\n"), .accepted),
    ]

    static let partial: [RequestCase] = [
        RequestCase("nothing yet", "", .incomplete),
        RequestCase("only empty lines", "\r\n\r\n", .incomplete),
        RequestCase("request line only", "GET / HTTP/1.1\r\n", .incomplete),
        RequestCase("ends after final CR", "GET / HTTP/1.1\r\nHost: a\r\n\r", .incomplete),
        RequestCase("ends inside a header", "GET / HTTP/1.1\r\nHost: exa", .incomplete),
        RequestCase("control byte refused before the head ends", "GET / HTTP/1.1\r\nX-A: \u{00}", .badRequest),
        RequestCase("bare LF refused before the head ends", "GET / HTTP/1.1\nHo", .badRequest),
        RequestCase("bare CR refused before the head ends", "GET / HTTP/1.1\rX", .badRequest),
    ]

    @Test(arguments: requestLine + headerSyntax + framing + hostAndConnection + partial)
    func verdict(_ row: RequestCase) {
        let result = parseRequestEveryWay(bytes(row.raw))
        #expect(Self.verdict(of: result, inputCount: row.raw.utf8.count) == row.verdict)
    }

    @Test func tableCoversTheContract() {
        let rows = Self.requestLine + Self.headerSyntax + Self.framing + Self.hostAndConnection + Self.partial
        #expect(rows.count >= 80)
        #expect(Set(rows.map(\.name)).count == rows.count, "row names must be unique")
    }

    static func verdict(of result: RequestParseResult, inputCount: Int) -> RequestCase.Verdict {
        switch result {
        case .complete(_, let consumed):
            #expect(consumed == inputCount, "a single head consumes all of its bytes")
            return .accepted
        case .incomplete:
            return .incomplete
        case .invalid(let error):
            #expect(!error.reason.isEmpty)
            switch error.kind {
            case .badRequest: return .badRequest
            case .uriTooLong: return .uriTooLong
            case .headersTooLarge: return .headersTooLarge
            }
        }
    }
}
