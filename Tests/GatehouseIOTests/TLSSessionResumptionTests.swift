import COpenSSL
import Testing
@testable import GatehouseIO

/// A second connection to the same upstream with the worker's session cache skips the full handshake.
struct TLSSessionResumptionTests {
    /// nil: the newest version both sides support (TLS 1.3); otherwise the client's highest version.
    @Test(arguments: [nil, TLS1_2_VERSION] as [Int32?])
    func secondConnectionResumesTheSession(_ maximumVersion: Int32?) throws {
        let fixtures = try TLSFixtures.load()
        let client = try TLSContext.client(caFile: fixtures.caFile, verify: true, certFile: nil, keyFile: nil)
        if let maximumVersion {
            _ = SSL_CTX_ctrl(client.pointer, SSL_CTRL_SET_MAX_PROTO_VERSION, Int(maximumVersion), nil)
        }
        let server = try TLSContext.server(certFile: fixtures.serverCert, keyFile: fixtures.keyFile, clientCAFile: nil)
        let cache = TLSSessionCache()

        let first = try TLSTestPair(client: client, server: server, session: cache)
        let firstSteps = first.handshake()
        #expect(firstSteps.client == .done && firstSteps.server == .done)
        #expect(first.client.sessionReused == false)
        // One request/response: TLS 1.3 tickets reach the client with the server's first bytes.
        #expect(first.transfer(Array("ping".utf8), from: first.client, to: first.server).received == Array("ping".utf8))
        #expect(first.transfer(Array("pong".utf8), from: first.server, to: first.client).received == Array("pong".utf8))
        #expect(cache.hasSession)
        first.client.shutdown()

        let second = try TLSTestPair(client: client, server: server, session: cache)
        let secondSteps = second.handshake()
        #expect(secondSteps.client == .done && secondSteps.server == .done)
        #expect(second.client.sessionReused)
        #expect(second.server.sessionReused)
        #expect(second.transfer(Array("again".utf8), from: second.client, to: second.server).received == Array("again".utf8))
    }

    @Test func withoutACacheEveryHandshakeIsFull() throws {
        let fixtures = try TLSFixtures.load()
        let client = try TLSContext.client(caFile: fixtures.caFile, verify: true, certFile: nil, keyFile: nil)
        let server = try TLSContext.server(certFile: fixtures.serverCert, keyFile: fixtures.keyFile, clientCAFile: nil)
        for _ in 0..<2 {
            let pair = try TLSTestPair(client: client, server: server)
            #expect(pair.handshake().client == .done)
            _ = pair.transfer(Array("pong".utf8), from: pair.server, to: pair.client)
            #expect(pair.client.sessionReused == false)
        }
    }

    @Test func clearedCacheHoldsNothing() throws {
        let fixtures = try TLSFixtures.load()
        let client = try TLSContext.client(caFile: fixtures.caFile, verify: true, certFile: nil, keyFile: nil)
        let server = try TLSContext.server(certFile: fixtures.serverCert, keyFile: fixtures.keyFile, clientCAFile: nil)
        let cache = TLSSessionCache()
        let pair = try TLSTestPair(client: client, server: server, session: cache)
        #expect(pair.handshake().client == .done)
        _ = pair.transfer(Array("pong".utf8), from: pair.server, to: pair.client)
        #expect(cache.hasSession)
        cache.clear()
        #expect(cache.hasSession == false)
    }
}
