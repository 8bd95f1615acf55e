/// `server.tls:` — TLS termination on the client listener. Absent: the listener speaks plain HTTP.
public struct ServerTLSConfig: Sendable, Equatable {
    /// PEM certificate chain presented to clients, leaf first.
    public var certFile: String
    /// PEM private key of the leaf certificate in `certFile`.
    public var keyFile: String
    /// PEM CA bundle; when set, clients must present a certificate signed by one of its CAs (mTLS).
    public var clientCAFile: String?

    public init(certFile: String, keyFile: String, clientCAFile: String? = nil) {
        self.certFile = certFile
        self.keyFile = keyFile
        self.clientCAFile = clientCAFile
    }
}
