/// A parsed upstream response head: one copy of its bytes and byte ranges into that copy.
public struct ResponseHead: HTTPHead, Sendable, Equatable {
    /// The head as received through the final CRLF CRLF; every range below indexes into it.
    public var bytes: [UInt8]
    public var status: Int
    /// The reason phrase (may be empty).
    public var reason: Range<Int>
    public var version: HTTPVersion
    /// Every header field in order of arrival, values trimmed.
    public var headers: [HeaderField]
    public var framing: ResponseBodyFraming
    /// Whether the upstream connection may be reused after this response: HTTP/1.1 unless
    /// `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`; never for a
    /// close-delimited body.
    public var keepAlive: Bool
    /// Every token listed in `Connection` headers; the fields they name are hop-by-hop.
    public var connectionOptions: [Range<Int>]
    /// The first Content-Type value, found while parsing: every response is asked its media type.
    public var contentType: Range<Int>?

    public init(bytes: [UInt8], status: Int, reason: Range<Int>, version: HTTPVersion, headers: [HeaderField],
                framing: ResponseBodyFraming, keepAlive: Bool, connectionOptions: [Range<Int>], contentType: Range<Int>?) {
        self.bytes = bytes
        self.status = status
        self.reason = reason
        self.version = version
        self.headers = headers
        self.framing = framing
        self.keepAlive = keepAlive
        self.connectionOptions = connectionOptions
        self.contentType = contentType
    }

    /// True for 1xx: an interim response; the final response head follows.
    public var isInterim: Bool { status < 200 }
}
