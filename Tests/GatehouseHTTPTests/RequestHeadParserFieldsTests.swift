import Testing
@testable import GatehouseHTTP

@Suite("Request head fields: ranges, framing, Host, Connection, Expect")
struct RequestHeadParserFieldsTests {
    @Test func rangesPointAtTheReceivedBytes() throws {
        let raw = "\r\nPOST /graphql/noauth?op=login&x= HTTP/1.1\r\nHost: api.example.com:8443\r\n"
            + "content-type:application/json \r\nX-Empty:\r\nContent-Length: 42\r\n\r\n"
        let head = try #require(requireHead(parseRequestEveryWay(bytes(raw))))
        #expect(head.bytes == bytes(raw))
        #expect(head.string(head.method) == "POST")
        #expect(head.methodKind == .post)
        #expect(head.string(head.target) == "/graphql/noauth?op=login&x=")
        #expect(head.string(head.path) == "/graphql/noauth")
        #expect(head.query.map(head.string) == "op=login&x=")
        #expect(head.version == .http11)
        #expect(head.headers.count == 4)
        #expect(head.headers.map { head.string($0.name) } == ["Host", "content-type", "X-Empty", "Content-Length"])
        #expect(head.headers.map { head.string($0.value) } == ["api.example.com:8443", "application/json", "", "42"])
        #expect(head.host.map(head.string) == "api.example.com:8443")
        #expect(head.framing == .contentLength(42))
        #expect(head.keepAlive)
        #expect(!head.expectContinue)
        #expect(!head.unsupportedExpectation)
        #expect(head.connectionOptions.isEmpty)
    }

    /// Authorization is noted while parsing (authentication reads it from there): the first
    /// value, any spelling of the name, and whether another came.
    @Test func authorizationIsNotedWithWhetherItRepeats() throws {
        let none = try #require(requireHead(parseRequestEveryWay(bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))))
        #expect(none.authorization == AuthorizationField())
        let one = try #require(requireHead(parseRequestEveryWay(
            bytes("GET / HTTP/1.1\r\nHost: a\r\nAUTHORIZATION:  Bearer abc \r\nX-Authorization: x\r\n\r\n"))))
        #expect(one.authorization.value.map(one.string) == "Bearer abc")
        #expect(!one.authorization.isRepeated)
        let two = try #require(requireHead(parseRequestEveryWay(
            bytes("GET / HTTP/1.1\r\nauthorization: Bearer first\r\nHost: a\r\nAuthorization: Bearer second\r\n\r\n"))))
        #expect(two.authorization.value.map(two.string) == "Bearer first")
        #expect(two.authorization.isRepeated)
    }

    @Test func queryIsNilWithoutQuestionMarkAndEmptyAfterOne() throws {
        let plain = try #require(requireHead(parseRequestEveryWay(bytes("GET /a/b HTTP/1.1\r\nHost: a\r\n\r\n"))))
        #expect(plain.query == nil)
        #expect(plain.string(plain.path) == "/a/b")
        let empty = try #require(requireHead(parseRequestEveryWay(bytes("GET /a? HTTP/1.1\r\nHost: a\r\n\r\n"))))
        #expect(empty.query.map(empty.string) == "")
        #expect(empty.string(empty.path) == "/a")
        let twice = try #require(requireHead(parseRequestEveryWay(bytes("GET /a?b?c HTTP/1.1\r\nHost: a\r\n\r\n"))))
        #expect(twice.query.map(twice.string) == "b?c")
    }

    @Test(arguments: [
        ("GET", HTTPMethod.get), ("HEAD", .head), ("POST", .post), ("PUT", .put), ("DELETE", .delete),
        ("OPTIONS", .options), ("PATCH", .patch), ("get", .other), ("PURGE", .other), ("POSTS", .other),
    ])
    func methodKind(_ method: String, _ expected: HTTPMethod) throws {
        let head = try #require(requireHead(parseRequestEveryWay(bytes("\(method) / HTTP/1.1\r\nHost: a\r\n\r\n"))))
        #expect(head.methodKind == expected)
        #expect(head.string(head.method) == method)
    }

    @Test(arguments: [
        ("chunked", RequestBodyFraming.chunked), ("Chunked", .chunked), ("chunked ", .chunked),
        ("\tchunked", .chunked),
    ])
    func transferEncodingFraming(_ value: String, _ expected: RequestBodyFraming) throws {
        let raw = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\(value)\r\n\r\n"
        let head = try #require(requireHead(parseRequestEveryWay(bytes(raw))))
        #expect(head.framing == expected)
    }

    @Test(arguments: [
        ("0", 0), ("5", 5), ("005", 5), ("1048576", 1_048_576), ("9007199254740992", 9_007_199_254_740_992),
    ])
    func contentLengthValue(_ value: String, _ expected: Int) throws {
        let raw = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \(value)\r\n\r\n"
        let head = try #require(requireHead(parseRequestEveryWay(bytes(raw))))
        #expect(head.framing == .contentLength(expected))
    }

    @Test func noFramingHeadersMeansNoBody() throws {
        let head = try #require(requireHead(parseRequestEveryWay(bytes("DELETE /x HTTP/1.1\r\nHost: a\r\n\r\n"))))
        #expect(head.framing == .none)
    }

    // MARK: - Keep-alive

    @Test(arguments: [
        ("HTTP/1.1", nil, true),
        ("HTTP/1.1", "close", false),
        ("HTTP/1.1", "Close", false),
        ("HTTP/1.1", "keep-alive", true),
        ("HTTP/1.1", "keep-alive, close", false),
        ("HTTP/1.1", "Upgrade", true),
        ("HTTP/1.0", nil, false),
        ("HTTP/1.0", "keep-alive", true),
        ("HTTP/1.0", "Keep-Alive", true),
        ("HTTP/1.0", "close", false),
        ("HTTP/1.0", "keep-alive, close", false),
    ] as [(String, String?, Bool)])
    func keepAlive(_ version: String, _ connection: String?, _ expected: Bool) throws {
        let connectionLine = connection.map { "Connection: \($0)\r\n" } ?? ""
        let raw = "GET / \(version)\r\nHost: a\r\n\(connectionLine)\r\n"
        let head = try #require(requireHead(parseRequestEveryWay(bytes(raw))))
        #expect(head.keepAlive == expected)
    }

    /// Every listed token names a hop-by-hop field, except `close` and `keep-alive`, which only
    /// steer the connection.
    @Test func connectionOptionsAreTheListedFieldNames() throws {
        let raw = "GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive , X-Trace,,\r\nX-Trace: 1\r\n"
            + "connection: x-debug\r\nX-Debug: 2\r\nKeep-Alive: timeout=5\r\nProxy-Authorization: b\r\nX-Kept: 3\r\n\r\n"
        let head = try #require(requireHead(parseRequestEveryWay(bytes(raw))))
        #expect(head.connectionOptions.map(head.string) == ["X-Trace", "x-debug"])
        let forwarded = head.headers.filter { !head.isHopByHop($0) }.map { head.string($0.name) }
        #expect(forwarded == ["Host", "X-Kept"])
    }

    // MARK: - Expect

    @Test(arguments: [
        ("HTTP/1.1", "100-continue", true, false),
        ("HTTP/1.1", "100-Continue", true, false),
        ("HTTP/1.1", " 100-continue ", true, false),
        ("HTTP/1.1", "200-ok", false, true),
        ("HTTP/1.1", "100-continue, foo", false, true),
        ("HTTP/1.0", "100-continue", false, false),
        ("HTTP/1.0", "200-ok", false, false),
    ])
    func expectation(_ version: String, _ value: String, _ continues: Bool, _ unsupported: Bool) throws {
        let raw = "POST / \(version)\r\nHost: a\r\nContent-Length: 1\r\nExpect:\(value)\r\n\r\n"
        let head = try #require(requireHead(parseRequestEveryWay(bytes(raw))))
        #expect(head.expectContinue == continues)
        #expect(head.unsupportedExpectation == unsupported)
    }

    // MARK: - Lookup helpers

    @Test func headerLookupIsCaseInsensitiveAndReturnsTheFirst() throws {
        let raw = "GET / HTTP/1.1\r\nHost: a\r\nX-Request-Id: one\r\nx-request-id: two\r\nAUTHORIZATION: Bearer t\r\n\r\n"
        let head = try #require(requireHead(parseRequestEveryWay(bytes(raw))))
        #expect(head.headerValue(named: "x-request-id").map(head.string) == "one")
        #expect(head.headerCount(named: "x-request-id") == 2)
        #expect(head.headerValue(named: HeaderNames.authorization).map(head.string) == "Bearer t")
        #expect(head.headerValue(named: "cookie") == nil)
        #expect(head.headerCount(named: "cookie") == 0)
        #expect(Array(head.bytes(head.headers[0].value)) == bytes("a"))
    }
}
