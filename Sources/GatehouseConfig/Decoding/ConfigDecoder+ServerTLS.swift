/// `server.tls:` — certificate and key for TLS on the client listener, and the CA for client
/// certificates. The files are checked for readability here; their contents are read by the
/// gateway when it builds the TLS context. One file may hold both the chain and the key.
extension ConfigDecoder {
    func serverTLS(_ node: YAMLNode, _ path: String) -> ServerTLSConfig? {
        guard var map = mapping(node, path) else { return nil }
        let certificate = map.required("cert_file", "required; the PEM certificate chain the listener presents",
                                       readableFile)
        let key = map.required("key_file", "required; the PEM private key of cert_file", readableFile)
        let clientCA = map.value("client_ca_file", readableFile)
        map.finish()

        guard let certificate, let key else { return nil }
        return ServerTLSConfig(certFile: certificate, keyFile: key, clientCAFile: clientCA)
    }
}
