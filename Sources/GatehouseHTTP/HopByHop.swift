/// Hop-by-hop header fields (RFC 9110 §7.6.1), which a proxy never forwards: `Connection`,
/// `Keep-Alive`, `Proxy-Connection`, every `Proxy-*`, `TE`, `Trailer`, `Transfer-Encoding` and
/// `Upgrade`. Fields named by `Connection` are hop-by-hop too; the heads answer that with
/// `isHopByHop(_:)`, which also consults their `connectionOptions`.
public enum HopByHop {
    /// True when a header with this name is hop-by-hop by definition. Inlinable: the head
    /// writers ask it of every field.
    @inlinable @inline(__always)
    public static func isHopByHop(_ name: UnsafeRawBufferPointer) -> Bool {
        switch name.count {
        case 2:
            if HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.te) { return true }
        case 7:
            if HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.trailer)
                || HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.upgrade) { return true }
        case 10:
            if HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.connection)
                || HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.keepAlive) { return true }
        case 17:
            if HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.transferEncoding) { return true }
        default:
            break
        }
        // `Proxy-Connection`, `Proxy-Authorization` and every other `Proxy-*` name.
        return HeaderNames.asciiCaseInsensitiveHasPrefix(name, "proxy-")
    }

    /// True when a header with this name is hop-by-hop by definition.
    @inline(__always)
    public static func isHopByHop(_ name: ArraySlice<UInt8>) -> Bool {
        name.withUnsafeBytes { isHopByHop($0) }
    }
}
