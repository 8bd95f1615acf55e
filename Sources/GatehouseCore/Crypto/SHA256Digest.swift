import COpenSSL

/// SHA-256 through OpenSSL's own low-level functions, on a context on the stack. `EVP_Digest`
/// allocates a context, looks the algorithm up in the provider and frees the context on every
/// call, which showed in profiles of the digests taken per request (cache keys, ETags, API
/// keys); the hashing code underneath is the same.
enum SHA256Digest {
    static let length = Int(SHA256_DIGEST_LENGTH)

    /// The digest of `bytes`, written to the `length` bytes at `output`. False only if libcrypto
    /// refuses, which its SHA-256 does not do for bytes in memory.
    @discardableResult
    static func digest(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>) -> Bool {
        var context = SHA256_CTX()
        return SHA256_Init(&context) == 1 && SHA256_Update(&context, bytes.baseAddress, bytes.count) == 1
            && SHA256_Final(output, &context) == 1
    }
}

/// A SHA-256 taken in pieces, on a context held by value: copying it forks the digest, so a
/// prefix common to many digests (a route's cache-key parts) is fed once.
struct SHA256Context: @unchecked Sendable {
    // A plain C struct of integers and bytes: copies are independent.
    private var context = SHA256_CTX()

    init() { SHA256_Init(&context) }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        SHA256_Update(&context, bytes.baseAddress, bytes.count)
    }

    /// The digest of everything fed so far, written to `SHA256Digest.length` bytes at `output`;
    /// the context itself can still be fed.
    func finish(into output: UnsafeMutablePointer<UInt8>) {
        var copy = context
        SHA256_Final(output, &copy)
    }
}
