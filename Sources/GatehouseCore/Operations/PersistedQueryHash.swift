import COpenSSL

/// The SHA-256 digests that name persisted operations: lowercase hex, as Apollo's APQ and
/// trusted-documents clients compute them over the document text's UTF-8 bytes.
enum PersistedQueryHash {
    static func sha256Hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if let hex = bytes.withContiguousStorageIfAvailable({ sha256Hex(UnsafeRawBufferPointer($0)) }) { return hex }
        return Array(bytes).withUnsafeBytes { sha256Hex($0) }
    }

    /// Lowercase hex of the digest of `bytes`, with `quote` before and after when given (an
    /// ETag); one allocation, the string's own.
    static func sha256Hex(_ bytes: UnsafeRawBufferPointer, quote: UInt8? = nil) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA256Digest.length) { digest in
            SHA256Digest.digest(bytes, into: digest.baseAddress!)
            return hex(UnsafeBufferPointer(digest), quote: quote)
        }
    }

    static func sha256Hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { sha256Hex($0) }
    }

    /// True for 64 hex digits (either case): the only shape a SHA-256 name can have.
    static func isWellFormed(_ hash: String) -> Bool {
        hash.utf8.count == 64 && hash.utf8.allSatisfy(isHexDigit)
    }

    /// The hash with A–F lowered, so lookups accept either case.
    static func normalized(_ hash: String) -> String {
        hash.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") })
            ? hash.lowercased() : hash
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    /// Written straight into the string's storage: digests are taken per request (cache keys).
    private static func hex(_ digest: UnsafeBufferPointer<UInt8>, quote: UInt8?) -> String {
        let quotes = quote == nil ? 0 : 2
        return String(unsafeUninitializedCapacity: digest.count * 2 + quotes) { text in
            var at = 0
            if let quote {
                text[0] = quote
                at = 1
            }
            for byte in digest {
                text[at] = hexDigit(byte >> 4)
                text[at + 1] = hexDigit(byte & 0x0F)
                at += 2
            }
            if let quote {
                text[at] = quote
                at += 1
            }
            return at
        }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
