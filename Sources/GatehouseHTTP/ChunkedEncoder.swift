/// The chunked transfer coding's framing (RFC 9112 §7.1): a chunk is its size in hex and CRLF,
/// the data, then `chunkTrailer`; the body ends with `lastChunk`. Empty chunks must not be
/// written (a zero size ends the body). `ByteBuffer.appendChunk(_:)` in GatehouseCore writes them.
public enum ChunkedEncoder {
    /// The CRLF after each chunk's data.
    public static let chunkTrailer: StaticString = "\r\n"
    /// The last chunk with an empty trailer section.
    public static let lastChunk: StaticString = "0\r\n\r\n"
}
