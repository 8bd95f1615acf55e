import COpenSSL

// MARK: - Server contexts (the listener)

extension TLSContext {
    /// A context for accepted connections, shared by all workers.
    ///
    /// - certFile: PEM certificate chain, leaf first.
    /// - clientCAFile: when set, clients must present a certificate issued by one of these CAs.
    public static func server(certFile: String, keyFile: String,
                              clientCAFile: String?) throws(TLSError) -> TLSContext {
        let context = try make(method: TLS_server_method(), verifiesPeer: clientCAFile != nil)
        let pointer = context.pointer
        try context.loadCertificate(certFile: certFile, keyFile: keyFile)

        if let clientCAFile {
            guard SSL_CTX_load_verify_locations(pointer, clientCAFile, nil) == 1,
                  let names = SSL_load_client_CA_file(clientCAFile) else {
                throw .fromQueue("cannot read client CA file \(clientCAFile)")
            }
            SSL_CTX_set_client_CA_list(pointer, names)  // takes ownership of `names`
            SSL_CTX_set_verify(pointer, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        }

        // Resumption: OpenSSL's server cache plus stateless tickets (on by default). A session id
        // context is required for resumption whenever client certificates are verified.
        _ = gh_SSL_CTX_set_session_cache_mode(pointer, Int(SSL_SESS_CACHE_SERVER))
        let sessionContext = Array("gatehouse".utf8)
        _ = SSL_CTX_set_session_id_context(pointer, sessionContext, UInt32(sessionContext.count))

        SSL_CTX_set_alpn_select_cb(pointer, { _, selected, selectedLength, offered, offeredLength, _ in
            guard let selected, let selectedLength, let offered,
                  let match = ALPN.findHTTP11(in: UnsafeBufferPointer(start: offered, count: Int(offeredLength)))
            else { return SSL_TLSEXT_ERR_NOACK }  // no http/1.1 offered: continue without ALPN
            selected.pointee = match.baseAddress
            selectedLength.pointee = UInt8(match.count)
            return SSL_TLSEXT_ERR_OK
        }, nil)
        return context
    }
}
