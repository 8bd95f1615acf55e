/// The answer of `RequestHeadParser.parse`.
public enum RequestParseResult: Sendable, Equatable {
    /// A whole head; `consumed` bytes of the buffer belong to it, the rest is body or the next request.
    case complete(RequestHead, consumed: Int)
    /// Call again with the same buffer plus more bytes.
    case incomplete
    /// Refuse the request and close the connection.
    case invalid(HTTPRequestError)
}
