/// Size limits applied while parsing a request head (`server.max_request_line`,
/// `server.max_header_bytes`, `server.max_headers`).
public struct HTTPLimits: Sendable, Equatable {
    /// Longest request line, without its CRLF; longer -> 414.
    public var maxRequestLine: Int
    /// Largest header section: every header line with its CRLF, without the final empty line;
    /// larger -> 431.
    public var maxHeaderBytes: Int
    /// Most header fields; more -> 431.
    public var maxHeaders: Int

    public init(maxRequestLine: Int = 8 * 1024, maxHeaderBytes: Int = 32 * 1024, maxHeaders: Int = 100) {
        precondition(maxRequestLine > 0 && maxHeaderBytes >= 0 && maxHeaders >= 0, "HTTP limits must not be negative")
        self.maxRequestLine = maxRequestLine
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaders = maxHeaders
    }
}
