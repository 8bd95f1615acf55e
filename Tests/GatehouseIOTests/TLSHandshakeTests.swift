import COpenSSL
import Testing
@testable import GatehouseIO

struct TLSHandshakeTests {
    private func pair(serverCert: String, serverName: String = "localhost", verify: Bool = true,
                      trustTestCA: Bool = true) throws -> TLSTestPair {
        let fixtures = try TLSFixtures.load()
        let client = try TLSContext.client(caFile: trustTestCA ? fixtures.caFile : nil, verify: verify,
                                           certFile: nil, keyFile: nil)
        let keyFile = serverCert == fixtures.selfSignedCert ? fixtures.path("self-signed.key") : fixtures.keyFile
        let server = try TLSContext.server(certFile: serverCert, keyFile: keyFile, clientCAFile: nil)
        return try TLSTestPair(client: client, server: server, serverName: serverName)
    }

    // MARK: - Success

    @Test func verifiedHandshakeSendsSNIAndNegotiatesHTTP11() throws {
        let fixtures = try TLSFixtures.load()
        let pair = try pair(serverCert: fixtures.serverCert)
        let steps = pair.handshake()
        #expect(steps.client == .done)
        #expect(steps.server == .done)
        #expect(pair.client.negotiatedProtocol == "http/1.1")
        #expect(pair.server.negotiatedProtocol == "http/1.1")
        #expect(pair.client.sessionReused == false)
        #expect(pair.client.peerCertificateSubject == "/CN=localhost")
        #expect(pair.server.peerCertificateSubject == nil)
        let sni = SSL_get_servername(pair.server.ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0) }
        #expect(sni == "localhost")
    }

    @Test func ipLiteralIsCheckedAgainstTheAddressAndSentWithoutSNI() throws {
        let fixtures = try TLSFixtures.load()
        let pair = try pair(serverCert: fixtures.serverCert, serverName: "127.0.0.1")
        let steps = pair.handshake()
        #expect(steps.client == .done)
        #expect(steps.server == .done)
        #expect(SSL_get_servername(pair.server.ssl, TLSEXT_NAMETYPE_host_name) == nil)
    }

    // MARK: - Verification failures

    /// (server certificate, name the client expects, words the client's error must contain)
    static let verificationFailures: [(String, String, String)] = [
        ("self-signed.pem", "localhost", "certificate not trusted: self-signed certificate"),
        ("wrong-name.pem", "localhost", "certificate name mismatch (expected localhost)"),
        ("server.pem", "api.internal", "certificate name mismatch (expected api.internal)"),
        ("server.pem", "127.0.0.2", "certificate name mismatch (expected 127.0.0.2)"),
        ("expired.pem", "localhost", "certificate expired"),
    ]

    @Test(arguments: verificationFailures)
    func clientRefusesBadServerCertificate(_ row: (String, String, String)) throws {
        let fixtures = try TLSFixtures.load()
        let pair = try pair(serverCert: fixtures.path(row.0), serverName: row.1)
        let steps = pair.handshake()
        #expect(steps.client.failureMessage == row.2)
        // The client's alert ends the server's handshake too.
        #expect(steps.server.failureMessage?.hasPrefix("handshake failed: ") == true)
    }

    @Test func systemTrustStoreDoesNotTrustTheTestCA() throws {
        let fixtures = try TLSFixtures.load()
        let pair = try pair(serverCert: fixtures.serverCert, trustTestCA: false)
        let message = pair.handshake().client.failureMessage
        #expect(message?.hasPrefix("certificate not trusted: ") == true)
    }

    @Test(arguments: ["self-signed.pem", "wrong-name.pem", "expired.pem"])
    func verifyFalseAcceptsAnyCertificate(_ certificate: String) throws {
        let fixtures = try TLSFixtures.load()
        let pair = try pair(serverCert: fixtures.path(certificate), verify: false)
        let steps = pair.handshake()
        #expect(steps.client == .done)
        #expect(steps.server == .done)
    }

    // MARK: - Protocol limits

    @Test func clientOfferingNoHTTP11ContinuesWithoutALPN() throws {
        let fixtures = try TLSFixtures.load()
        let client = try TLSContext.client(caFile: fixtures.caFile, verify: true, certFile: nil, keyFile: nil)
        let h2: [UInt8] = [2] + Array("h2".utf8)
        #expect(SSL_CTX_set_alpn_protos(client.pointer, h2, UInt32(h2.count)) == 0)
        let server = try TLSContext.server(certFile: fixtures.serverCert, keyFile: fixtures.keyFile, clientCAFile: nil)
        let pair = try TLSTestPair(client: client, server: server)
        let steps = pair.handshake()
        #expect(steps.client == .done)
        #expect(steps.server == .done)
        #expect(pair.client.negotiatedProtocol == nil)
        #expect(pair.server.negotiatedProtocol == nil)
    }

    @Test func serverRefusesTLS11() throws {
        let fixtures = try TLSFixtures.load()
        let client = try TLSContext.client(caFile: fixtures.caFile, verify: true, certFile: nil, keyFile: nil)
        // An old client: TLS 1.1 at most, at a security level that still allows it.
        SSL_CTX_set_security_level(client.pointer, 0)
        _ = SSL_CTX_ctrl(client.pointer, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_1_VERSION), nil)
        _ = SSL_CTX_ctrl(client.pointer, SSL_CTRL_SET_MAX_PROTO_VERSION, Int(TLS1_1_VERSION), nil)
        let server = try TLSContext.server(certFile: fixtures.serverCert, keyFile: fixtures.keyFile, clientCAFile: nil)
        let pair = try TLSTestPair(client: client, server: server)
        let steps = pair.handshake()
        #expect(steps.server.failureMessage == "handshake failed: unsupported protocol")
        #expect(steps.client.isFinal && steps.client != .done)
    }
}
