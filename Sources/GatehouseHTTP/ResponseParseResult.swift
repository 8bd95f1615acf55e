/// The answer of `ResponseHeadParser.parse`.
public enum ResponseParseResult: Sendable, Equatable {
    /// A whole head; `consumed` bytes of the buffer belong to it, the rest is body.
    case complete(ResponseHead, consumed: Int)
    /// Call again with the same buffer plus more bytes.
    case incomplete
    /// A malformed response: answer 502 and discard the upstream connection.
    case invalid(reason: String)
}
