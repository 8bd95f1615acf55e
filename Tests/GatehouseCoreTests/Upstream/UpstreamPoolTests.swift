import GatehouseConfig
import GatehouseIO
import Glibc
import Testing
@testable import GatehouseCore

/// One endpoint's pool on a real event loop against a real loopback listener: connections are
/// made up to `max_connections`, later requests wait in order and get the connection a release
/// or a discard frees, idle connections are kept up to `max_idle`, and a refused connect is
/// reported to the one who asked.
@Suite(.serialized) struct UpstreamPoolTests {
    /// Records what the pool and a connection tell whoever asked for it.
    final class Recorder: UpstreamWaiter, UpstreamConnectionOwner {
        var handedOver: [UpstreamConnection] = []
        var failures: [UpstreamFailure] = []
        var connected: [UpstreamConnection] = []
        let loop: EventLoop
        var stopWhen: (Recorder) -> Bool = { _ in false }
        init(loop: EventLoop) { self.loop = loop }
        private func check() { if stopWhen(self) { loop.stop() } }
        func connectionAvailable(_ connection: UpstreamConnection) { handedOver.append(connection); check() }
        func connectionFailed(_ failure: UpstreamFailure) { failures.append(failure); check() }
        func upstreamConnected(_ connection: UpstreamConnection) { connected.append(connection); check() }
        func upstreamReadable(_ connection: UpstreamConnection) {}
        func upstreamWritable(_ connection: UpstreamConnection) {}
        func upstreamFailed(_ connection: UpstreamConnection, _ failure: UpstreamFailure) { failures.append(failure); check() }
    }

    /// A loopback port with a listener (accepting into its backlog), or without one.
    static func port(listening: Bool) throws -> (port: Int, fd: Int32) {
        for candidate in 43_100..<43_400 {
            if let fd = try? Listener.open(host: "127.0.0.1", port: candidate, backlog: 64) {
                if listening { return (candidate, fd) }
                Syscalls.close(fd)
                return (candidate, -1)
            }
        }
        throw PoolTestError.noFreePort
    }

    enum PoolTestError: Error { case noFreePort, badConfig }

    static func group(port: Int, maxConnections: Int, maxIdle: Int, loop: EventLoop) throws -> UpstreamEndpointGroup {
        let yaml = """
        server: {listen: "127.0.0.1:1", admin_listen: ""}
        upstreams:
          app: {url: "http://127.0.0.1:\(port)/graphql", max_connections: \(maxConnections), max_idle: \(maxIdle), connect_timeout: 1s}
        routes: [{path: /graphql, upstream: app, auth: none}]
        """
        guard case .success(let config) = ConfigLoader.load(yaml: yaml, environment: [:]),
              case .success(let snapshot) = GatewaySnapshot.compile(config) else { throw PoolTestError.badConfig }
        return UpstreamEndpointGroup(loop: loop, upstream: snapshot.upstreams[0], metrics: UpstreamMetrics(name: "app"),
                                     seed: 1, board: UpstreamStatusBoard())
    }

    static func run(_ loop: EventLoop, for limitNanos: UInt64 = 2_000_000_000) {
        loop.run(forAtMost: limitNanos)
    }

    @Test func connectsThenQueuesBeyondMaxConnections() throws {
        let loop = EventLoop(name: "pool")
        let (port, listener) = try Self.port(listening: true)
        defer { Syscalls.close(listener) }
        let pool = try Self.group(port: port, maxConnections: 1, maxIdle: 4, loop: loop).pools[0]
        let first = Recorder(loop: loop), second = Recorder(loop: loop)
        guard case .connecting(let connection) = pool.acquire(for: first) else {
            Issue.record("expected a new connection")
            return
        }
        connection.lend(to: first)
        first.stopWhen = { !$0.connected.isEmpty }
        Self.run(loop)
        #expect(first.connected.count == 1)
        #expect(pool.openCount == 1)
        // The only connection is lent: the next request waits for it.
        guard case .queued = pool.acquire(for: second) else {
            Issue.record("expected to wait")
            return
        }
        #expect(pool.waitingCount == 1)
        pool.release(connection)
        second.stopWhen = { !$0.handedOver.isEmpty }
        Self.run(loop)
        #expect(second.handedOver.first === connection)  // reused, not a second connect
        #expect(pool.openCount == 1)
        pool.discard(connection)
        #expect(pool.openCount == 0)
    }

    @Test func aDiscardedConnectionMakesRoomForTheNextWaiter() throws {
        let loop = EventLoop(name: "pool")
        let (port, listener) = try Self.port(listening: true)
        defer { Syscalls.close(listener) }
        let pool = try Self.group(port: port, maxConnections: 1, maxIdle: 4, loop: loop).pools[0]
        let first = Recorder(loop: loop), second = Recorder(loop: loop)
        guard case .connecting(let connection) = pool.acquire(for: first),
              case .queued = pool.acquire(for: second) else {
            Issue.record("expected a connect, then a wait")
            return
        }
        pool.discard(connection)  // its state was doubtful: closed, and the waiter connects anew
        second.stopWhen = { !$0.handedOver.isEmpty }
        Self.run(loop)
        #expect(second.handedOver.count == 1)
        #expect(second.handedOver.first !== connection)
        #expect(pool.openCount == 1)
    }

    @Test func idleConnectionsAreKeptUpToMaxIdle() throws {
        let loop = EventLoop(name: "pool")
        let (port, listener) = try Self.port(listening: true)
        defer { Syscalls.close(listener) }
        let pool = try Self.group(port: port, maxConnections: 4, maxIdle: 1, loop: loop).pools[0]
        let owner = Recorder(loop: loop)
        var lent: [UpstreamConnection] = []
        for _ in 0..<2 {
            guard case .connecting(let connection) = pool.acquire(for: owner) else { return }
            connection.lend(to: owner)
            lent.append(connection)
        }
        owner.stopWhen = { $0.connected.count == 2 }
        Self.run(loop)
        pool.release(lent[0])
        pool.release(lent[1])  // one idle already: this one is closed
        #expect(pool.openCount == 1)
        guard case .reused(let again) = pool.acquire(for: owner) else {
            Issue.record("expected the idle connection")
            return
        }
        #expect(again === lent[0])
        pool.closeIdle()
        pool.discard(again)
        #expect(pool.openCount == 0)
    }

    @Test func aRefusedConnectIsReported() throws {
        let loop = EventLoop(name: "pool")
        let (port, _) = try Self.port(listening: false)
        let pool = try Self.group(port: port, maxConnections: 2, maxIdle: 2, loop: loop).pools[0]
        let owner = Recorder(loop: loop)
        switch pool.acquire(for: owner) {
        case .connecting(let connection):
            connection.lend(to: owner)
            owner.stopWhen = { !$0.failures.isEmpty }
            Self.run(loop)
        case .failed(let failure):
            owner.failures.append(failure)
        default:
            Issue.record("unexpected acquisition")
        }
        guard case .refused? = owner.failures.first else {
            Issue.record("expected a refused connect, got \(owner.failures)")
            return
        }
        #expect(pool.openCount == 0)
    }

    @Test func aCancelledWaiterIsNotServed() throws {
        let loop = EventLoop(name: "pool")
        let (port, listener) = try Self.port(listening: true)
        defer { Syscalls.close(listener) }
        let pool = try Self.group(port: port, maxConnections: 1, maxIdle: 1, loop: loop).pools[0]
        let first = Recorder(loop: loop), gone = Recorder(loop: loop)
        guard case .connecting(let connection) = pool.acquire(for: first), case .queued = pool.acquire(for: gone) else {
            return
        }
        pool.cancelWait(gone)
        #expect(pool.waitingCount == 0)
        pool.discard(connection)
        Self.run(loop, for: 100_000_000)
        #expect(gone.handedOver.isEmpty && gone.failures.isEmpty)
    }
}
