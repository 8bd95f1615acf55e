import GatehouseIO
import Glibc

/// A failure to start the demo backend, worded for the operator who ran `gatehouse demo`.
public struct DemoServerError: Error, CustomStringConvertible {
    public var description: String
}

/// Serves a `DemoBackend` over HTTP/1.1 on its own GatehouseIO event loop: one thread for the
/// listener and every connection, keep-alive and pipelining supported. The backend is touched
/// only on that thread.
public final class DemoServer: @unchecked Sendable {
    public let host: String
    public let port: Int
    let backend: DemoBackend

    /// A connection that sends nothing for this long is closed, so idle keep-alive clients
    /// cannot pile up; longer than the gateway's own idle upstream connections live.
    public static let defaultIdleTimeout = Duration.seconds(120)
    let idleTimeoutNanoseconds: UInt64

    private struct Running {
        var loop: EventLoop
        var thread: pthread_t
    }

    private let running = Locked<Running?>(nil)
    // Loop-thread state.
    private var acceptor: DemoAcceptor?
    private var connections: [ObjectIdentifier: DemoConnection] = [:]

    public init(backend: DemoBackend, host: String = "127.0.0.1", port: Int,
                idleTimeout: Duration = DemoServer.defaultIdleTimeout) {
        self.backend = backend
        self.host = host
        self.port = port
        let (seconds, attoseconds) = idleTimeout.components
        idleTimeoutNanoseconds = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }

    // MARK: - Lifecycle

    /// Binds `host:port` and serves on a new thread; returns once the socket listens, so a
    /// gateway started afterwards finds the backend ready.
    public func start() throws(DemoServerError) {
        let fd: Int32
        do {
            // `open` sets SO_REUSEPORT; without this check a second backend would share the port.
            try Listener.ensureAvailable(host: host, port: port)
            fd = try Listener.open(host: host, port: port, backlog: Self.backlog)
        } catch {
            throw DemoServerError(description: "cannot listen on \(host):\(port): \(error)")
        }
        let loop = EventLoop(name: "demo-backend")
        let started = running.withLock { current -> Bool in
            guard current == nil else { return false }
            let thread = WorkerThread.start(name: "demo-backend") { [self] in
                acceptor = DemoAcceptor(server: self, loop: loop, fd: fd)
                loop.run()
                closeEverything()
                loop.releaseEverything()  // closed connections' timers hold them, and they hold this server
            }
            current = Running(loop: loop, thread: thread)
            return true
        }
        if !started {
            Syscalls.close(fd)
            throw DemoServerError(description: "the demo backend on \(host):\(port) is already started")
        }
    }

    /// Stops accepting, closes every connection and waits for the loop thread to end.
    public func stop() {
        guard let current = running.withLock({ current in
            defer { current = nil }
            return current
        }) else { return }
        current.loop.post { loop in loop.stop() }
        WorkerThread.join(current.thread)
    }

    /// Room for the gateway's pool and a burst of curl calls.
    static let backlog: Int32 = 128

    // MARK: - Loop thread

    func accepted(_ fd: Int32, loop: EventLoop) {
        let connection = DemoConnection(server: self, loop: loop, fd: fd)
        connections[ObjectIdentifier(connection)] = connection
        connection.start()
    }

    func closed(_ connection: DemoConnection) {
        connections.removeValue(forKey: ObjectIdentifier(connection))
    }

    private func closeEverything() {
        acceptor?.close()
        acceptor = nil
        for connection in Array(connections.values) { connection.close() }
        connections.removeAll()
    }
}
