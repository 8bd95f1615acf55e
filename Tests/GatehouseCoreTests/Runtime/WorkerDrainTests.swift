import CLinux
import GatehouseIO
import Glibc
import Testing
@testable import GatehouseCore

/// A worker's drain on a real loop and loopback sockets, driven step by step from the test
/// thread: the loop runs only when the test says so, so a request can be made to sit unread in
/// its socket at the moment the drain starts, which no timing of real processes makes certain.
@Suite(.serialized) struct WorkerDrainTests {
    enum DrainTestError: Error { case noFreePort, badConfig }

    /// One worker on `WorkerTestSnapshot`'s one route, so no other process is needed.
    static func worker() throws -> (Worker, port: Int) {
        guard let snapshot = WorkerTestSnapshot.oneRoute(upstream: "drain-suite") else { throw DrainTestError.badConfig }
        for port in 43_400..<43_700 {
            if let fd = try? Listener.open(host: "127.0.0.1", port: port, backlog: 64) {
                let worker = Worker(index: 0, snapshot: snapshot, listenerFD: fd,
                                    shared: SharedServerState(maxConnections: 64), logFD: -1)
                worker.startAccepting()
                return (worker, port)
            }
        }
        throw DrainTestError.noFreePort
    }

    /// A blocking client socket, connected (the listener's backlog takes it before any accept).
    static func client(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var storage = SocketAddress(host: "127.0.0.1", port: port)!.storage
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(result == 0)
        return fd
    }

    static func send(_ text: String, on fd: Int32) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) } == bytes.count)
    }

    /// What the worker sent on `fd` until it closed it, or until `limit` slices of its loop have
    /// run: the loop runs in slices and the socket is read between them without waiting.
    static func received(on fd: Int32, running worker: Worker, untilClosed: Bool,
                         orAfter limit: Int = 100) -> (text: String, closed: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<limit {
            worker.loop.run(forAtMost: 10_000_000)
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n > 0 { bytes += chunk[0..<n]; continue }
                if n == 0 || (n < 0 && errno == ECONNRESET) { return (String(decoding: bytes, as: UTF8.self), true) }
                break
            }
            if !untilClosed && String(decoding: bytes, as: UTF8.self).contains("\r\n\r\n") && bytes.last == UInt8(ascii: "}") {
                break
            }
        }
        return (String(decoding: bytes, as: UTF8.self), false)
    }

    static let request = "GET /unknown HTTP/1.1\r\nHost: gatehouse.test\r\n\r\n"

    /// A request that arrived on an idle keep-alive connection before the drain began, but was
    /// not read yet, is answered, and the connection then closes: closing at once would lose it
    /// (and reset the connection for its unread bytes).
    @Test func aRequestWaitingUnreadWhenTheDrainStartsIsAnsweredThenTheConnectionCloses() throws {
        let (worker, port) = try Self.worker()
        let fd = Self.client(port: port)
        defer { Glibc.close(fd) }
        Self.send(Self.request, on: fd)
        let first = Self.received(on: fd, running: worker, untilClosed: false)
        #expect(first.text.hasPrefix("HTTP/1.1 404"))
        #expect(!first.closed)
        #expect(!first.text.lowercased().contains("connection: close"))

        // The loop is not running: the second request waits in the socket while the drain starts.
        Self.send(Self.request, on: fd)
        worker.beginDrain()
        let second = Self.received(on: fd, running: worker, untilClosed: true)
        #expect(second.text.hasPrefix("HTTP/1.1 404"))
        #expect(second.text.lowercased().contains("connection: close"))
        #expect(second.closed)
    }

    /// An idle connection with nothing waiting closes as the drain starts, without a byte.
    @Test func anIdleConnectionWithNothingWaitingClosesAtOnce() throws {
        let (worker, port) = try Self.worker()
        let fd = Self.client(port: port)
        defer { Glibc.close(fd) }
        Self.send(Self.request, on: fd)
        #expect(Self.received(on: fd, running: worker, untilClosed: false).text.hasPrefix("HTTP/1.1 404"))
        worker.beginDrain()
        let after = Self.received(on: fd, running: worker, untilClosed: true, orAfter: 1)
        #expect(after.closed)
        #expect(after.text.isEmpty)
    }
}
