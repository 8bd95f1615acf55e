import COpenSSL

/// Turns a certificate verification result (`SSL_get_verify_result`) into the sentence the error
/// envelope and the log carry: untrusted, wrong name and expired are told apart because operators
/// fix each one differently.
enum TLSVerificationFailure {
    static func message(code: Int, expectedName: String?, peerIsClient: Bool) -> String {
        let subject = peerIsClient ? "client certificate" : "certificate"
        let text = String(cString: X509_verify_cert_error_string(code))
        switch Int32(code) {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return "\(subject) expired"
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return "\(subject) not yet valid"
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
            let name = expectedName.map { " (expected \($0))" } ?? ""
            return "\(subject) name mismatch\(name)"
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
             X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
             X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE,
             X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
             X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
             X509_V_ERR_CERT_UNTRUSTED,
             X509_V_ERR_CERT_REJECTED:
            return "\(subject) not trusted: \(text)"
        default:
            return "\(subject) verification failed: \(text)"
        }
    }
}
