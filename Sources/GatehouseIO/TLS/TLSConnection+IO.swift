import COpenSSL
import Glibc

// MARK: - Handshake, read, write, close

extension TLSConnection {
    /// One handshake step. Certificate verification happens here; a failure says why
    /// (not trusted, name mismatch, expired, or the TLS alert/reason).
    public func handshake() -> TLSStep {
        ERR_clear_error()
        errno = 0
        let result = SSL_do_handshake(ssl)
        if result == 1 { return .done }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case let code:
            hasFailed = true
            return .failed(handshakeError(code))
        }
    }

    /// Reads decrypted bytes (`count` > 0). `.done(0)`: the peer closed.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) -> TLSIO {
        ERR_clear_error()
        errno = 0
        var n = 0
        if SSL_read_ex(ssl, buffer, count, &n) == 1 { return .done(n) }
        return ioOutcome(SSL_get_error(ssl, 0), reading: true)
    }

    /// Encrypts and sends up to `count` bytes; `.done(n)` may be less than `count` (one TLS record
    /// at a time). After `.wantWrite`/`.wantRead`, call again with the same bytes (the buffer may
    /// have moved).
    public func write(from buffer: UnsafeRawPointer, count: Int) -> TLSIO {
        if count == 0 { return .done(0) }
        ERR_clear_error()
        errno = 0
        var n = 0
        if SSL_write_ex(ssl, buffer, count, &n) == 1 { return .done(n) }
        return ioOutcome(SSL_get_error(ssl, 0), reading: false)
    }

    /// Decrypted bytes are waiting inside OpenSSL: read again now, epoll will not report them.
    public var hasBufferedInput: Bool { SSL_pending(ssl) > 0 }

    /// True when the handshake resumed an earlier session instead of a full handshake.
    public var sessionReused: Bool { SSL_session_reused(ssl) == 1 }

    /// The protocol chosen by ALPN, or nil when none was negotiated.
    public var negotiatedProtocol: String? {
        var name: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &name, &length)
        guard let name, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: name, count: Int(length)), as: UTF8.self)
    }

    /// The peer certificate's subject (`/O=Example/CN=client`), for logging mTLS clients; nil without one.
    public var peerCertificateSubject: String? {
        guard let certificate = SSL_get0_peer_certificate(ssl),
              let name = X509_get_subject_name(certificate) else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 512) { buffer in
            guard let text = X509_NAME_oneline(name, buffer.baseAddress, Int32(buffer.count)) else { return nil }
            return String(cString: text)
        }
    }

    /// Sends close_notify if the connection is in a state to, without waiting for the peer's reply
    /// or for writability: best effort before the caller closes the socket.
    public func shutdown() {
        guard !hasFailed, SSL_is_init_finished(ssl) == 1 else { return }
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    // MARK: - Error mapping

    private func ioOutcome(_ code: Int32, reading: Bool) -> TLSIO {
        switch code {
        case SSL_ERROR_WANT_READ:
            return .wantRead
        case SSL_ERROR_WANT_WRITE:
            return .wantWrite
        case SSL_ERROR_ZERO_RETURN:
            return .done(0)
        default:
            hasFailed = true
            if reading && isUncleanEOF(code) {
                ERR_clear_error()
                return .done(0)
            }
            return .failed(failure(code, context: reading ? "TLS read failed" : "TLS write failed"))
        }
    }

    /// The peer closed the socket without close_notify: OpenSSL reports SSL_ERROR_SYSCALL with no
    /// errno, or (OpenSSL 3 with an EOF-aware BIO) an "unexpected eof" reason.
    private func isUncleanEOF(_ code: Int32) -> Bool {
        switch code {
        case SSL_ERROR_SYSCALL:
            return errno == 0 && ERR_peek_error() == 0
        case SSL_ERROR_SSL:
            return OpenSSLErrorQueue.peekReason() == SSL_R_UNEXPECTED_EOF_WHILE_READING
        default:
            return false
        }
    }

    private func handshakeError(_ code: Int32) -> TLSError {
        // Without verification OpenSSL still records a result; it is not why the handshake failed.
        let verification = SSL_get_verify_result(ssl)
        if context.verifiesPeer && verification != X509_V_OK {
            ERR_clear_error()
            return TLSError(TLSVerificationFailure.message(
                code: verification, expectedName: expectedName, peerIsClient: expectedName == nil))
        }
        if isUncleanEOF(code) {
            ERR_clear_error()
            return TLSError("handshake failed: connection closed by peer")
        }
        return failure(code, context: "handshake failed")
    }

    private func failure(_ code: Int32, context: String) -> TLSError {
        if code == SSL_ERROR_SYSCALL && errno != 0 {
            let text = Syscalls.errorText(errno)
            ERR_clear_error()
            return TLSError("\(context): \(text)")
        }
        return .fromQueue(context)
    }
}
