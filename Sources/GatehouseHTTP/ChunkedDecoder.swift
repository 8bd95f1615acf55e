/// Incremental decoder for the chunked transfer coding (RFC 9112 §7.1). It never copies body
/// data: it reports where data lies in the caller's buffer and keeps only framing state, so it
/// gives the same answers when fed a message whole, byte by byte or in any split.
///
/// Accepted: `1*HEXDIG` sizes of at most `maxSizeDigits` digits; chunk extensions
/// (`;name[=token|quoted-string]`, whitespace only around `;` and `=`) up to `maxExtensionBytes` per size
/// line; trailer fields in header syntax up to `maxTrailerBytes`, then ignored. Every line ends
/// with CRLF exactly.
public struct ChunkedDecoder: Sendable {
    public static let maxSizeDigits = 15
    public static let maxExtensionBytes = 4 * 1024
    public static let maxTrailerBytes = 8 * 1024

    enum State: Sendable {
        case sizeStart
        case size
        case afterSize
        case extensionNameStart
        case extensionName
        case afterExtensionName
        case extensionValueStart
        case extensionToken
        case extensionQuoted
        case extensionQuotedEscape
        case extensionQuotedEnd
        case afterExtensionValue
        case sizeLineLF
        case data
        case dataCR
        case dataLF
        case trailerLineStart
        case trailerName
        case trailerValue
        case trailerLineLF
        case finalLF
        case finished
        case failed
    }

    var state: State = .sizeStart
    /// The size being read, then the data bytes still expected in the current chunk.
    var remaining = 0
    var sizeDigits = 0
    var extensionBytes = 0
    var trailerBytes = 0

    public init() {}

    /// True once the last chunk and the trailer section have been decoded.
    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// True when no chunk is half read: a last chunk written now ends the body cleanly.
    public var isBetweenChunks: Bool {
        if case .sizeStart = state { return true }
        return false
    }

    // MARK: - Decoding

    public mutating func decode(_ buffer: UnsafeRawBufferPointer) -> ChunkedStep {
        // Bytes after the last chunk belong to the next message; never look at them.
        if case .finished = state { return .end(consumed: 0) }
        let count = buffer.count
        var index = 0
        while index < count {
            if case .data = state {
                let length = min(remaining, count - index)
                remaining -= length
                if remaining == 0 { state = .dataCR }
                return .data(index..<(index + length), consumed: index + length)
            }
            if let reason = step(buffer[index]) {
                state = .failed
                return .invalid(reason: reason)
            }
            index += 1
            if case .finished = state { return .end(consumed: index) }
        }
        switch state {
        case .failed: return .invalid(reason: "The chunked body is malformed.")
        default: return .needMore(consumed: index)
        }
    }
}
