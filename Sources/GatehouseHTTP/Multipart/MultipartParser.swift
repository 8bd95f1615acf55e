/// Incremental `multipart/form-data` reader (RFC 2046 §5.1, RFC 7578) for streamed uploads. Part
/// data is never copied: it is reported as ranges of the caller's buffer, and a tail that could
/// be the start of the next delimiter is left unconsumed for the caller to pass again, so the
/// parser holds at most one part header section (bounded by `maxHeaderBytes`) however large a
/// file is. Answers are the same fed whole, byte by byte or in any split.
public struct MultipartParser: Sendable {
    /// Part header sections are small; Apollo and curl write well under 1 KiB.
    public static let defaultMaxHeaderBytes = 8 * 1024

    enum State: Sendable {
        /// Before the first boundary: bytes are ignored; `matched` delimiter bytes seen so far.
        case preamble(matched: Int)
        /// Right after a delimiter: `--` closes, padding and CRLF open a part.
        case afterDelimiter
        case closeDash
        case padding
        case paddingLF
        case headers
        case data
        case finished
        case failed(String)
    }

    static let crlf: [UInt8] = [13, 10]
    static let emptyLineAfterFields: [UInt8] = [13, 10, 13, 10]

    /// `CRLF--boundary`: what ends every part's data.
    let delimiter: [UInt8]
    let maxHeaderBytes: Int
    var state: State
    var headerBlock: [UInt8] = []

    public init(boundary: [UInt8], maxHeaderBytes: Int = MultipartParser.defaultMaxHeaderBytes) {
        delimiter = Array("\r\n--".utf8) + boundary
        self.maxHeaderBytes = maxHeaderBytes
        // The body may start with the boundary itself: count the CRLF before it as seen.
        state = .preamble(matched: 2)
    }

    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    // MARK: - Parsing

    public mutating func parse(_ buffer: UnsafeRawBufferPointer) -> MultipartStep {
        var index = 0
        let count = buffer.count
        while index < count {
            switch state {
            case .finished:
                return .end(consumed: count)
            case .failed(let reason):
                return .invalid(reason: reason)
            case .data:
                return dataStep(buffer, from: index)
            case .preamble(let matched):
                let byte = buffer[index]
                index += 1
                if byte == delimiter[matched] {
                    if matched + 1 == delimiter.count { state = .afterDelimiter } else { state = .preamble(matched: matched + 1) }
                } else {
                    state = .preamble(matched: byte == delimiter[0] ? 1 : 0)
                }
            case .headers:
                let byte = buffer[index]
                index += 1
                headerBlock.append(byte)
                if headerBlock.count > maxHeaderBytes { return fail("A part's header section is too large.") }
                if headerBlock == Self.crlf || headerBlock.suffix(4) == Self.emptyLineAfterFields {
                    let block = headerBlock
                    headerBlock.removeAll(keepingCapacity: true)
                    guard let headers = MultipartPartHeaders.parse(block) else {
                        return fail("A part lacks a valid Content-Disposition: form-data; name=….")
                    }
                    state = .data
                    return .partStart(headers, consumed: index)
                }
            default:
                let byte = buffer[index]
                index += 1
                if let reason = delimiterTail(byte) { return fail(reason) }
                if case .finished = state { return .end(consumed: count) }
            }
        }
        if case .failed(let reason) = state { return .invalid(reason: reason) }
        return .needMore(consumed: index)
    }

    /// After `--boundary`: `--` (close), or transport padding then CRLF (RFC 2046 §5.1.1).
    private mutating func delimiterTail(_ byte: UInt8) -> String? {
        switch (state, byte) {
        case (.afterDelimiter, UInt8(ascii: "-")): state = .closeDash
        case (.closeDash, UInt8(ascii: "-")): state = .finished
        case (.afterDelimiter, UInt8(ascii: " ")), (.afterDelimiter, UInt8(ascii: "\t")),
             (.padding, UInt8(ascii: " ")), (.padding, UInt8(ascii: "\t")): state = .padding
        case (.afterDelimiter, 13), (.padding, 13): state = .paddingLF
        case (.paddingLF, 10): state = .headers
        default: return "The boundary line is malformed."
        }
        return nil
    }

    /// Reports part data up to the next delimiter, holding back a tail that may start one.
    private mutating func dataStep(_ buffer: UnsafeRawBufferPointer, from start: Int) -> MultipartStep {
        let count = buffer.count
        var index = start
        while index < count {
            if buffer[index] == delimiter[0] {
                switch match(buffer, at: index) {
                case .full:
                    if index > start { return .data(start..<index, consumed: index) }
                    state = .afterDelimiter
                    return .partEnd(consumed: index + delimiter.count)
                case .partial:
                    if index > start { return .data(start..<index, consumed: index) }
                    return .needMore(consumed: index)
                case .none:
                    break
                }
            }
            index += 1
        }
        return .data(start..<count, consumed: count)
    }

    private enum Match { case full, partial, none }

    private func match(_ buffer: UnsafeRawBufferPointer, at index: Int) -> Match {
        let available = min(delimiter.count, buffer.count - index)
        for offset in 0..<available where buffer[index + offset] != delimiter[offset] { return .none }
        return available == delimiter.count ? .full : .partial
    }

    private mutating func fail(_ reason: String) -> MultipartStep {
        state = .failed(reason)
        return .invalid(reason: reason)
    }
}
