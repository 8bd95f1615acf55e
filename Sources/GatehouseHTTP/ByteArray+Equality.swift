import Glibc

/// Comparing stored bytes (route paths, methods, memo keys, cached tokens) with bytes of a
/// request, with one `memcmp` rather than an element-by-element loop. Inlinable: route matching
/// and the token cache call them on every request from GatehouseCore, and a call across the
/// module boundary cost the JWT path some 150 instructions (callgrind).
extension Array where Element == UInt8 {
    /// True when `bytes` holds exactly these bytes.
    @inlinable @inline(__always)
    public func equals(_ bytes: UnsafeRawBufferPointer) -> Bool {
        count == bytes.count && isPrefix(of: bytes)
    }

    /// True when `bytes` starts with these bytes.
    @inlinable @inline(__always)
    public func isPrefix(of bytes: UnsafeRawBufferPointer) -> Bool {
        guard count <= bytes.count else { return false }
        guard !isEmpty else { return true }
        return withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, count) == 0 }
    }
}
