/// One answer of `MultipartParser.parse`. `consumed` counts from the start of the buffer passed to
/// that call; bytes after it were not used and must be passed again, with more input after them
/// (the parser holds back a tail that may be the start of a boundary).
public enum MultipartStep: Sendable, Equatable {
    /// A part begins; its data follows.
    case partStart(MultipartPartHeaders, consumed: Int)
    /// `buffer[range]` is data of the current part.
    case data(Range<Int>, consumed: Int)
    /// The current part's data is complete.
    case partEnd(consumed: Int)
    /// The close delimiter was read; whatever follows (the epilogue) is ignored.
    case end(consumed: Int)
    case needMore(consumed: Int)
    case invalid(reason: String)
}
