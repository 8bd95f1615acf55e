import COpenSSL

/// Owns one OpenSSL `EVP_PKEY` holding a public key and frees it when the last reference goes.
/// The key is fully built before this wrapper exists and never changed afterwards; OpenSSL 3 allows
/// concurrent verifications with one `EVP_PKEY`, hence the unchecked Sendable.
final class OpenSSLPublicKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }
}
