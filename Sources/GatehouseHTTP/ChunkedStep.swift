/// One answer of `ChunkedDecoder.decode`. `consumed` always counts from the start of the buffer
/// passed to that call.
public enum ChunkedStep: Sendable, Equatable {
    /// `buffer[range]` is body data; `consumed` (== `range.upperBound`) bytes are used, framing included.
    case data(Range<Int>, consumed: Int)
    /// The consumed bytes were all framing; call again with the rest plus more input.
    case needMore(consumed: Int)
    /// The last chunk and the trailer section are done; bytes after `consumed` are not part of the body.
    case end(consumed: Int)
    /// Malformed chunked framing; the connection must close.
    case invalid(reason: String)
}
