import COpenSSL

/// The SHA-256 digests that name persisted operations: lowercase hex, as Apollo's APQ and
/// trusted-documents clients compute them over the document text's UTF-8 bytes.
enum PersistedQueryHash {
    static func sha256Hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let hashed: Bool? = bytes.withContiguousStorageIfAvailable { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &digest, nil, FetchedDigest.sha256, nil) == 1
        }
        if hashed == nil {
            let copy = Array(bytes)
            _ = copy.withUnsafeBufferPointer { buffer in
                EVP_Digest(buffer.baseAddress, buffer.count, &digest, nil, FetchedDigest.sha256, nil)
            }
        }
        return hex(digest)
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
    private static func hex(_ digest: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: digest.count * 2) { text in
            for (index, byte) in digest.enumerated() {
                text[2 * index] = hexDigit(byte >> 4)
                text[2 * index + 1] = hexDigit(byte & 0x0F)
            }
            return digest.count * 2
        }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
