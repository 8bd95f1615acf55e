/// How the body of a response is delimited (RFC 9112 §6.3).
public enum ResponseBodyFraming: Sendable, Equatable {
    /// No body: 1xx, 204, 304 or an answer to HEAD.
    case none
    /// Exactly this many bytes follow the head.
    case contentLength(Int)
    /// `Transfer-Encoding: chunked`; decode with `ChunkedDecoder`.
    case chunked
    /// The body runs until the upstream closes the connection; the connection cannot be reused.
    case closeDelimited
}
