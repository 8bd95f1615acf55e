import COpenSSL

/// Message digests fetched from OpenSSL once per process. `EVP_sha256()` makes OpenSSL 3 look
/// the algorithm up again on every use (a lock and a hash-table search), which showed in
/// profiles of the digests taken per request: cache keys, API keys, ETags. A fetched `EVP_MD`
/// is immutable and may be used from every thread at once; it is never freed.
enum FetchedDigest {
    nonisolated(unsafe) static let sha256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256()
    nonisolated(unsafe) static let sha1: OpaquePointer? = EVP_MD_fetch(nil, "SHA1", nil) ?? EVP_sha1()
}
