/// Writes the chunked transfer coding (RFC 9112 §7.1): each chunk is `chunkHeader(size:)`, the
/// data, then `chunkTrailer`; the body ends with `lastChunk`. Empty chunks must not be written
/// (a zero size ends the body).
public enum ChunkedEncoder {
    /// The CRLF after each chunk's data.
    public static let chunkTrailer: StaticString = "\r\n"
    /// The last chunk with an empty trailer section.
    public static let lastChunk: StaticString = "0\r\n\r\n"

    /// The size line for a chunk of `size` bytes, e.g. `1a\r\n`.
    public static func chunkHeader(size: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(18)
        appendChunkHeader(size: size, to: &bytes)
        return bytes
    }

    /// Appends the size line for a chunk of `size` bytes to an existing buffer (no allocation
    /// when it has room).
    @inline(__always)
    public static func appendChunkHeader(size: Int, to bytes: inout [UInt8]) {
        precondition(size > 0, "a zero-size chunk would end the body; write lastChunk instead")
        bytes.append(hex: size)
        bytes.append(ascii: "\r\n")
    }
}
