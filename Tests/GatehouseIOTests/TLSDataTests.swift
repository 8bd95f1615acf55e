import Glibc
import Testing
@testable import GatehouseIO

/// Application data over an established connection: both directions, back-pressure, buffered
/// records and both ways a peer can close.
struct TLSDataTests {
    private func connectedPair() throws -> TLSTestPair {
        let fixtures = try TLSFixtures.load()
        let client = try TLSContext.client(caFile: fixtures.caFile, verify: true, certFile: nil, keyFile: nil)
        let server = try TLSContext.server(certFile: fixtures.serverCert, keyFile: fixtures.keyFile, clientCAFile: nil)
        let pair = try TLSTestPair(client: client, server: server)
        let steps = pair.handshake()
        guard steps.client == .done, steps.server == .done else {
            throw TLSError("handshake failed: \(steps)")
        }
        return pair
    }

    private static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    }

    @Test(arguments: [1, 100, 16 * 1024, 100_000])
    func bytesArriveIntactInBothDirections(_ count: Int) throws {
        let pair = try connectedPair()
        let request = Self.pattern(count)
        let upstream = pair.transfer(request, from: pair.client, to: pair.server)
        #expect(upstream.error == nil)
        #expect(upstream.received == request)
        let response = Array(request.reversed())
        let downstream = pair.transfer(response, from: pair.server, to: pair.client)
        #expect(downstream.error == nil)
        #expect(downstream.received == response)
    }

    @Test func largeWriteMakesPartialProgressUnderBackpressure() throws {
        let pair = try connectedPair()
        let body = Self.pattern(8 << 20)
        let result = pair.transfer(body, from: pair.server, to: pair.client, writeSize: 4 << 20)
        #expect(result.error == nil)
        #expect(result.backpressure)
        #expect(result.received.count == body.count)
        #expect(result.received == body)
    }

    @Test func readSmallerThanARecordLeavesBufferedInput() throws {
        let pair = try connectedPair()
        let message = Self.pattern(10_000)
        let written = message.withUnsafeBytes { pair.server.write(from: $0.baseAddress!, count: $0.count) }
        #expect(written == .done(10_000))
        #expect(pair.client.hasBufferedInput == false)
        let (first, head) = pair.readOnce(pair.client, count: 100)
        #expect(first == .done(100))
        #expect(pair.client.hasBufferedInput)
        let (_, rest) = pair.readOnce(pair.client, count: 64 * 1024)
        #expect(head + rest == message)
        #expect(pair.client.hasBufferedInput == false)
        #expect(pair.readOnce(pair.client).0 == .wantRead)
    }

    @Test func closeNotifyReadsAsEndOfStream() throws {
        let pair = try connectedPair()
        pair.server.shutdown()
        #expect(pair.readOnce(pair.client).0 == .done(0))
    }

    @Test func socketClosedWithoutCloseNotifyReadsAsEndOfStream() throws {
        let pair = try connectedPair()
        Glibc.shutdown(pair.serverFD, Int32(SHUT_WR))
        #expect(pair.readOnce(pair.client).0 == .done(0))
    }

    @Test func writeToAClosedPeerFailsWithoutSignal() throws {
        let pair = try connectedPair()
        Glibc.shutdown(pair.serverFD, Int32(SHUT_RDWR))
        let data = Self.pattern(1000)
        let outcome = data.withUnsafeBytes { pair.client.write(from: $0.baseAddress!, count: $0.count) }
        #expect(outcome == .failed(TLSError("TLS write failed: \(Syscalls.errorText(EPIPE))")))
    }
}
