import COpenSSL

/// An OpenSSL `SSL_CTX` set up for one side of TLS: `client(...)` for https upstreams,
/// `server(...)` for the listener. It is fully configured before it is returned and never changed
/// afterwards, and OpenSSL lets one `SSL_CTX` create connections on many threads at once — hence
/// the unchecked Sendable. A reload builds a new context; live connections keep their old one alive.
public final class TLSContext: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Whether the peer's certificate is verified: for clients also the server's name.
    let verifiesPeer: Bool

    private init(taking pointer: OpaquePointer, verifiesPeer: Bool) {
        self.pointer = pointer
        self.verifiesPeer = verifiesPeer
    }

    deinit {
        SSL_CTX_free(pointer)
    }

    // MARK: - Shared setup

    /// Creates a context with the settings both sides share: TLS 1.2 or newer, partial writes from a
    /// buffer that may move between retries (the caller's buffers are Swift arrays), and no
    /// password prompt on a terminal for an encrypted key.
    static func make(method: OpaquePointer?, verifiesPeer: Bool) throws(TLSError) -> TLSContext {
        ERR_clear_error()
        guard let pointer = SSL_CTX_new(method) else { throw .fromQueue("cannot create TLS context") }
        let context = TLSContext(taking: pointer, verifiesPeer: verifiesPeer)
        guard gh_SSL_CTX_set_min_proto_version(pointer, TLS1_2_VERSION) == 1 else {
            throw .fromQueue("cannot require TLS 1.2")
        }
        // Release buffers of idle connections, as nginx does: keep-alive pools hold many of them.
        let mode = SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS
        _ = gh_SSL_CTX_set_mode(pointer, Int(mode))
        SSL_CTX_set_default_passwd_cb(pointer) { _, _, _, _ in 0 }
        return context
    }

    /// Loads a PEM certificate chain and its private key and checks that they belong together.
    func loadCertificate(certFile: String, keyFile: String) throws(TLSError) {
        ERR_clear_error()
        guard SSL_CTX_use_certificate_chain_file(pointer, certFile) == 1 else {
            throw .fromQueue("cannot read certificate file \(certFile)")
        }
        let mismatch = TLSError("key file \(keyFile) does not match certificate file \(certFile)")
        guard SSL_CTX_use_PrivateKey_file(pointer, keyFile, SSL_FILETYPE_PEM) == 1 else {
            // Loading the key already compares it with the certificate.
            if OpenSSLErrorQueue.earliestIs(library: ERR_LIB_X509, reason: X509_R_KEY_VALUES_MISMATCH) {
                ERR_clear_error()
                throw mismatch
            }
            throw .fromQueue("cannot read key file \(keyFile)")
        }
        guard SSL_CTX_check_private_key(pointer) == 1 else {
            ERR_clear_error()
            throw mismatch
        }
    }
}
