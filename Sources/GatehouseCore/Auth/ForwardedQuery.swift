import GatehouseIO

/// The query string the upstream gets: as the client sent it, minus a `token_from: query:NAME`
/// parameter (a token in a URL must not travel further than the gateway).
enum ForwardedQuery {
    /// `query` is the bytes after "?", starting at `queryStart` in the head; `omitting` is a range
    /// of the head within it.
    @inline(__always)
    static func write(_ query: UnsafeRawBufferPointer, queryStart: Int, omitting: Range<Int>?, into out: inout ByteBuffer) {
        guard let omitting else {
            out.append(byte: UInt8(ascii: "?"))
            out.append(query)
            return
        }
        let cut = (omitting.lowerBound - queryStart)..<(omitting.upperBound - queryStart)
        guard cut.count < query.count else { return }  // the token was the whole query
        out.append(byte: UInt8(ascii: "?"))
        out.append(UnsafeRawBufferPointer(rebasing: query[..<cut.lowerBound]))
        out.append(UnsafeRawBufferPointer(rebasing: query[cut.upperBound...]))
    }
}
