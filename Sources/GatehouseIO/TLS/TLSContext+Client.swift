import COpenSSL

// MARK: - Client contexts (https upstreams)

extension TLSContext {
    /// A context for connections to one upstream.
    ///
    /// - caFile: PEM file of trusted CAs; nil trusts the system store.
    /// - verify: check the server's certificate chain and name (off only for test setups).
    /// - certFile/keyFile: a client certificate for mTLS; a key inside `certFile` works without `keyFile`.
    public static func client(caFile: String?, verify: Bool, certFile: String?,
                              keyFile: String?) throws(TLSError) -> TLSContext {
        let context = try make(method: TLS_client_method(), verifiesPeer: verify)
        let pointer = context.pointer
        if let caFile {
            guard SSL_CTX_load_verify_locations(pointer, caFile, nil) == 1 else {
                throw .fromQueue("cannot read CA file \(caFile)")
            }
        } else if SSL_CTX_set_default_verify_paths(pointer) != 1 {
            throw .fromQueue("cannot load the system trust store")
        }
        SSL_CTX_set_verify(pointer, verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nil)

        switch (certFile, keyFile) {
        case (let cert?, let key):
            try context.loadCertificate(certFile: cert, keyFile: key ?? cert)
        case (nil, let key?):
            throw TLSError("key file \(key) given without a certificate file")
        case (nil, nil):
            break
        }

        // Sessions go to the connection's TLSSessionCache, not to OpenSSL's internal store.
        let cacheMode = SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE
        _ = gh_SSL_CTX_set_session_cache_mode(pointer, Int(cacheMode))
        SSL_CTX_sess_set_new_cb(pointer) { ssl, session in
            guard let ssl, let session, let cache = TLSConnection.sessionCache(of: ssl) else { return 0 }
            cache.store(session)
            return 1  // the cache now owns this reference
        }

        let offer = ALPN.http11WireFormat
        guard SSL_CTX_set_alpn_protos(pointer, offer, UInt32(offer.count)) == 0 else {
            throw .fromQueue("cannot offer ALPN http/1.1")
        }
        return context
    }
}
