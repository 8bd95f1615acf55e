/// Lowercase names of the header fields the gateway reads or writes, and the case-insensitive
/// comparison used to find them (field names are case-insensitive, RFC 9110 §5.1).
public enum HeaderNames {
    public static let host: StaticString = "host"
    public static let contentLength: StaticString = "content-length"
    public static let contentType: StaticString = "content-type"
    public static let transferEncoding: StaticString = "transfer-encoding"
    public static let connection: StaticString = "connection"
    public static let keepAlive: StaticString = "keep-alive"
    public static let proxyConnection: StaticString = "proxy-connection"
    public static let te: StaticString = "te"
    public static let trailer: StaticString = "trailer"
    public static let upgrade: StaticString = "upgrade"
    public static let expect: StaticString = "expect"
    public static let authorization: StaticString = "authorization"
    public static let cookie: StaticString = "cookie"
    public static let cacheControl: StaticString = "cache-control"
    public static let retryAfter: StaticString = "retry-after"
    public static let wwwAuthenticate: StaticString = "www-authenticate"
    public static let allow: StaticString = "allow"
    public static let xRequestID: StaticString = "x-request-id"
    public static let xForwardedFor: StaticString = "x-forwarded-for"
    public static let xForwardedProto: StaticString = "x-forwarded-proto"
    public static let traceparent: StaticString = "traceparent"

    // MARK: - Comparison

    /// True when `bytes` equals `lowercase` ignoring ASCII case. `lowercase` must be all lowercase.
    /// Read through the literal's pointer: `withUTF8Buffer` is a closure call per comparison, and
    /// header lookups compare every field's name. Inlinable, so that other modules' comparisons
    /// fold the literal's length and words into their code instead of calling out for each name.
    @inlinable @inline(__always)
    public static func asciiCaseInsensitiveEquals(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        bytes.count == lowercase.utf8CodeUnitCount && asciiCaseInsensitiveHasPrefix(bytes, lowercase)
    }

    /// True when `bytes` equals `lowercase` ignoring ASCII case. `lowercase` must be all lowercase.
    @inlinable @inline(__always)
    public static func asciiCaseInsensitiveEquals(_ bytes: ArraySlice<UInt8>, _ lowercase: StaticString) -> Bool {
        bytes.withUnsafeBytes { asciiCaseInsensitiveEquals($0, lowercase) }
    }

    /// True when `bytes` starts with `lowercase` ignoring ASCII case (read through the literal's
    /// pointer too). Eight bytes at a time, the last word overlapping the one before: every
    /// lookup compares names, and most names are longer than a word.
    @inlinable @inline(__always)
    public static func asciiCaseInsensitiveHasPrefix(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        guard count > 0 else { return true }
        let actual = bytes.baseAddress!
        let expected = UnsafeRawPointer(lowercase.utf8Start)
        // Most names compared differ from the first byte on (a lookup passes every field of the
        // same length): that is told before any word is read.
        guard ASCII.lowercased(actual.load(as: UInt8.self)) == expected.load(as: UInt8.self) else { return false }
        if count >= 8 {
            var offset = 0
            while true {
                let word = ASCII.lowercased(word: actual.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                if word != expected.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
                if offset == count - 8 { return true }
                offset = min(offset + 8, count - 8)
            }
        }
        if count >= 4 {
            let first = ASCII.lowercased(word: actual.loadUnaligned(as: UInt32.self))
            let last = ASCII.lowercased(word: actual.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return first == expected.loadUnaligned(as: UInt32.self)
                && last == expected.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        var index = 0
        while index < count {
            if ASCII.lowercased(actual.load(fromByteOffset: index, as: UInt8.self)) != expected.load(fromByteOffset: index, as: UInt8.self) {
                return false
            }
            index += 1
        }
        return true
    }

    /// Case-insensitive comparison of two byte strings (e.g. a header name against a name listed in
    /// `Connection`).
    @inline(__always)
    public static func asciiCaseInsensitiveEquals(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var index = 0
        while index < lhs.count {
            if ASCII.lowercased(lhs[index]) != ASCII.lowercased(rhs[index]) { return false }
            index += 1
        }
        return true
    }
}
