import Glibc
import Testing
@testable import GatehouseIO

/// `SocketStream.write(_:then:)`: two buffers in one send, in order, as far as the socket takes
/// them; through TLS it declines and the caller copies.
@Suite struct SocketStreamTests {
    static func received(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }

    @Test func bothPartsArriveInOrder() {
        let (a, b) = EventLoopTests.socketPair()
        defer { Syscalls.close(a); Syscalls.close(b) }
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n".utf8), body = Array("hello".utf8)
        let outcome = head.withUnsafeBytes { first in
            body.withUnsafeBytes { second in SocketStream(fd: a).write(first, then: second) }
        }
        #expect(outcome == .done(head.count + body.count))
        #expect(Self.received(b) == head + body)
    }

    @Test func anEmptyFirstPartSendsTheSecond() {
        let (a, b) = EventLoopTests.socketPair()
        defer { Syscalls.close(a); Syscalls.close(b) }
        let body = Array(repeating: UInt8(ascii: "x"), count: 300)
        let outcome = body.withUnsafeBytes { SocketStream(fd: a).write(UnsafeRawBufferPointer(start: nil, count: 0), then: $0) }
        #expect(outcome == .done(body.count))
        #expect(Self.received(b) == body)
    }

    /// TLS writes one record stream per buffer: the two-part send declines and sends nothing.
    @Test func throughTLSItDeclines() throws {
        let fixtures = try TLSFixtures.load()
        let client = try TLSContext.client(caFile: fixtures.caFile, verify: true, certFile: nil, keyFile: nil)
        let server = try TLSContext.server(certFile: fixtures.serverCert, keyFile: fixtures.keyFile, clientCAFile: nil)
        let pair = try TLSTestPair(client: client, server: server)
        let bytes = Array("x".utf8)
        let outcome = bytes.withUnsafeBytes { SocketStream(fd: pair.clientFD, tls: pair.client).write($0, then: $0) }
        #expect(outcome == nil)
    }

    /// A full socket takes a prefix: what it took is the head, then the body's start.
    @Test func aFullSocketTakesAPrefixThenWouldBlock() {
        let (a, b) = EventLoopTests.socketPair()
        defer { Syscalls.close(a); Syscalls.close(b) }
        let head = Array(repeating: UInt8(ascii: "h"), count: 100)
        let body = (0..<4_000_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let stream = SocketStream(fd: a)
        let first = head.withUnsafeBytes { h in body.withUnsafeBytes { stream.write(h, then: $0) } }
        guard case .done(let taken) = first else {
            Issue.record("expected a partial send, got \(String(describing: first))")
            return
        }
        #expect(taken > head.count && taken < head.count + body.count)
        let second = head.withUnsafeBytes { h in body.withUnsafeBytes { stream.write(h, then: $0) } }
        #expect(second == .wouldBlock(needsWritable: true))
        #expect(Self.received(b) == head + body[0..<(taken - head.count)])
    }
}
