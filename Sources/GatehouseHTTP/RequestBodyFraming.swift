/// How the body of a request is delimited (RFC 9112 §6.3).
public enum RequestBodyFraming: Sendable, Equatable {
    /// No body.
    case none
    /// Exactly this many bytes follow the head.
    case contentLength(Int)
    /// `Transfer-Encoding: chunked`; decode with `ChunkedDecoder`.
    case chunked
}
