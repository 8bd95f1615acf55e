import Testing
@testable import GatehouseIO

/// Building contexts from files: every failure names the file and the reason.
struct TLSContextTests {
    @Test func missingServerFilesAreNamed() throws {
        let fixtures = try TLSFixtures.load()
        #expect(throws: TLSError("cannot read certificate file /nonexistent/cert.pem: No such file or directory")) {
            try TLSContext.server(certFile: "/nonexistent/cert.pem", keyFile: fixtures.keyFile, clientCAFile: nil)
        }
        #expect(throws: TLSError("cannot read key file /nonexistent/key.pem: No such file or directory")) {
            try TLSContext.server(certFile: fixtures.serverCert, keyFile: "/nonexistent/key.pem", clientCAFile: nil)
        }
    }

    @Test func keyThatDoesNotMatchTheCertificateIsRefused() throws {
        let fixtures = try TLSFixtures.load()
        let expected = TLSError("key file \(fixtures.otherKeyFile) does not match certificate file \(fixtures.serverCert)")
        #expect(throws: expected) {
            try TLSContext.server(certFile: fixtures.serverCert, keyFile: fixtures.otherKeyFile, clientCAFile: nil)
        }
        #expect(throws: expected) {
            try TLSContext.client(caFile: nil, verify: true, certFile: fixtures.serverCert, keyFile: fixtures.otherKeyFile)
        }
    }

    @Test func missingCAFilesAreNamed() throws {
        let fixtures = try TLSFixtures.load()
        let clientError = #expect(throws: TLSError.self) {
            try TLSContext.client(caFile: "/nonexistent/ca.pem", verify: true, certFile: nil, keyFile: nil)
        }
        #expect(clientError?.message.hasPrefix("cannot read CA file /nonexistent/ca.pem") == true)
        let serverError = #expect(throws: TLSError.self) {
            try TLSContext.server(certFile: fixtures.serverCert, keyFile: fixtures.keyFile,
                                  clientCAFile: "/nonexistent/ca.pem")
        }
        #expect(serverError?.message.hasPrefix("cannot read client CA file /nonexistent/ca.pem") == true)
    }

    @Test func clientKeyWithoutCertificateIsRefused() throws {
        let fixtures = try TLSFixtures.load()
        #expect(throws: TLSError("key file \(fixtures.keyFile) given without a certificate file")) {
            try TLSContext.client(caFile: nil, verify: true, certFile: nil, keyFile: fixtures.keyFile)
        }
    }
}
