import COpenSSL

/// The SHA-256 digests that name persisted operations: lowercase hex, as Apollo's APQ and
/// trusted-documents clients compute them over the document text's UTF-8 bytes.
enum PersistedQueryHash {
    static func sha256Hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if let hex = bytes.withContiguousStorageIfAvailable({ sha256Hex(UnsafeRawBufferPointer($0)) }) { return hex }
        return Array(bytes).withUnsafeBytes { sha256Hex($0) }
    }

    /// Lowercase hex of the digest of `bytes`; one allocation, the string's own.
    static func sha256Hex(_ bytes: UnsafeRawBufferPointer) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA256Digest.length) { digest in
            SHA256Digest.digest(bytes, into: digest.baseAddress!)
            return String(unsafeUninitializedCapacity: SHA256Digest.length * 2) { text in
                LowercaseHex.write(UnsafeRawBufferPointer(digest), to: text.baseAddress!)
                return SHA256Digest.length * 2
            }
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
}
