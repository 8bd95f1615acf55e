/// A parsed request head: one copy of its bytes and byte ranges into that copy. Nothing is
/// decoded into strings; callers compare and forward slices.
public struct RequestHead: HTTPHead, Sendable, Equatable {
    /// The head as received, from the first byte consumed (including skipped empty lines) through
    /// the final CRLF CRLF. Every range below indexes into it.
    public var bytes: [UInt8]
    public var method: Range<Int>
    public var methodKind: HTTPMethod
    /// The whole request target (origin-form: starts with "/").
    public var target: Range<Int>
    /// The target up to, not including, the first "?".
    public var path: Range<Int>
    /// The bytes after the first "?" (may be empty); nil when the target has no "?".
    public var query: Range<Int>?
    public var version: HTTPVersion
    /// Every header field in order of arrival, values trimmed.
    public var headers: [HeaderField]
    public var framing: RequestBodyFraming
    /// The value of the single Host header (validated syntax), nil when an HTTP/1.0 request has none.
    public var host: Range<Int>?
    /// Whether the connection may be reused after this request: HTTP/1.1 unless `Connection: close`;
    /// HTTP/1.0 only with `Connection: keep-alive` (and no `close`).
    public var keepAlive: Bool
    /// `Expect: 100-continue` on an HTTP/1.1 request.
    public var expectContinue: Bool
    /// An `Expect` value other than 100-continue on an HTTP/1.1 request (answer 417).
    public var unsupportedExpectation: Bool
    /// Every token listed in `Connection` headers; the fields they name are hop-by-hop.
    public var connectionOptions: [Range<Int>]
    /// The Authorization field, noted during the parse.
    public var authorization: AuthorizationField

    public init(bytes: [UInt8], method: Range<Int>, methodKind: HTTPMethod, target: Range<Int>,
                path: Range<Int>, query: Range<Int>?, version: HTTPVersion, headers: [HeaderField],
                framing: RequestBodyFraming, host: Range<Int>?, keepAlive: Bool, expectContinue: Bool,
                unsupportedExpectation: Bool, connectionOptions: [Range<Int>],
                authorization: AuthorizationField = AuthorizationField()) {
        self.bytes = bytes
        self.method = method
        self.methodKind = methodKind
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.framing = framing
        self.host = host
        self.keepAlive = keepAlive
        self.expectContinue = expectContinue
        self.unsupportedExpectation = unsupportedExpectation
        self.connectionOptions = connectionOptions
        self.authorization = authorization
    }
}
