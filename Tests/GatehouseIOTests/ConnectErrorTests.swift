import CLinux
import Glibc
import Testing
@testable import GatehouseIO

/// How a non-blocking connect turned out, as the upstream pool, health probes and key fetches
/// read it: a socket connected to itself counts as refused.
@Suite struct ConnectErrorTests {
    /// A non-blocking TCP socket bound to 127.0.0.1 on a port the kernel picks, and that port.
    static func boundSocket() -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        let address = SocketAddress(host: "127.0.0.1", port: 0)!
        #expect(Syscalls.bind(fd, to: address) == 0)
        return (fd, localPort(of: fd))
    }

    /// The port an IPv4 socket is bound to.
    static func localPort(of fd: Int32) -> Int {
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: bound.sin_port))
    }

    /// Starts a connect from `fd` and waits until it is writable (connected or failed).
    static func connect(_ fd: Int32, toPort port: Int) {
        var storage = SocketAddress(host: "127.0.0.1", port: port)!.storage
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(result == 0 || errno == EINPROGRESS)
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        #expect(poll(&entry, 1, 2_000) == 1)
    }

    @Test func aSocketConnectedToItselfIsRefused() {
        // What an ephemeral source port equal to the destination port amounts to.
        let (fd, port) = Self.boundSocket()
        defer { Syscalls.close(fd) }
        Self.connect(fd, toPort: port)
        #expect(gh_socket_error(fd) == 0)  // the kernel calls it connected
        #expect(Syscalls.connectError(fd) == ECONNREFUSED)
    }

    @Test func aConnectionToAListenerSucceeds() throws {
        let listener = try Listener.open(host: "127.0.0.1", port: 0)
        defer { Syscalls.close(listener) }
        let (fd, _) = Self.boundSocket()
        defer { Syscalls.close(fd) }
        Self.connect(fd, toPort: Self.localPort(of: listener))
        #expect(Syscalls.connectError(fd) == 0)
    }

    @Test func aClosedPortIsRefused() {
        // A port that was just free: bound, then closed without listening.
        let (probe, port) = Self.boundSocket()
        Syscalls.close(probe)
        let (fd, _) = Self.boundSocket()
        defer { Syscalls.close(fd) }
        Self.connect(fd, toPort: port)
        #expect(Syscalls.connectError(fd) == ECONNREFUSED)
    }
}
