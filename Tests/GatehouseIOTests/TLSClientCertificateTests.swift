import Testing
@testable import GatehouseIO

/// The listener requiring client certificates (mTLS) and upstream connections presenting one.
struct TLSClientCertificateTests {
    private func serverRequiringClientCertificates() throws -> TLSContext {
        let fixtures = try TLSFixtures.load()
        return try TLSContext.server(certFile: fixtures.serverCert, keyFile: fixtures.keyFile,
                                     clientCAFile: fixtures.caFile)
    }

    @Test func trustedClientCertificateIsAccepted() throws {
        let fixtures = try TLSFixtures.load()
        let client = try TLSContext.client(caFile: fixtures.caFile, verify: true,
                                           certFile: fixtures.clientCert, keyFile: fixtures.keyFile)
        let pair = try TLSTestPair(client: client, server: serverRequiringClientCertificates())
        let steps = pair.handshake()
        #expect(steps.client == .done)
        #expect(steps.server == .done)
        #expect(pair.server.peerCertificateSubject == "/O=Gatehouse Tests/CN=gatehouse-client")
    }

    @Test func missingClientCertificateIsRefused() throws {
        let fixtures = try TLSFixtures.load()
        let client = try TLSContext.client(caFile: fixtures.caFile, verify: true, certFile: nil, keyFile: nil)
        let pair = try TLSTestPair(client: client, server: serverRequiringClientCertificates())
        let steps = pair.handshake()
        #expect(steps.server.failureMessage == "handshake failed: peer did not return a certificate")
        // With TLS 1.3 the client finishes its side first and learns of the refusal on its first read.
        if steps.client == .done {
            let (outcome, _) = pair.readOnce(pair.client)
            guard case .failed(let error) = outcome else {
                Issue.record("expected the client's read to fail, got \(outcome)")
                return
            }
            #expect(error.message.hasPrefix("TLS read failed: "))
        }
    }

    @Test func untrustedClientCertificateIsRefused() throws {
        let fixtures = try TLSFixtures.load()
        let client = try TLSContext.client(caFile: fixtures.caFile, verify: true,
                                           certFile: fixtures.selfSignedCert, keyFile: fixtures.path("self-signed.key"))
        let pair = try TLSTestPair(client: client, server: serverRequiringClientCertificates())
        let steps = pair.handshake()
        #expect(steps.server.failureMessage == "client certificate not trusted: self-signed certificate")
    }
}
