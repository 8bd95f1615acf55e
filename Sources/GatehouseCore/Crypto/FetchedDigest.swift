import COpenSSL

/// Message digests fetched from OpenSSL once per process, for the digests taken through EVP
/// (SHA-256 has its own path: `SHA256Digest.swift`). `EVP_sha1()` makes OpenSSL 3 look the
/// algorithm up again on every use (a lock and a hash-table search). A fetched `EVP_MD` is
/// immutable and may be used from every thread at once; it is never freed.
enum FetchedDigest {
    nonisolated(unsafe) static let sha1: OpaquePointer? = EVP_MD_fetch(nil, "SHA1", nil) ?? EVP_sha1()
}
