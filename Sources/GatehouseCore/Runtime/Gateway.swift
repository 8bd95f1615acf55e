import CLinux
import GatehouseConfig
import GatehouseIO
import Glibc
import Synchronization

/// The running gateway: worker threads, the admin listener, reload and drain. Called from the
/// main thread only.
public final class Gateway: @unchecked Sendable {
    public enum StartError: Error, CustomStringConvertible {
        case listen(String)
        case accessLog(String)

        public var description: String {
            switch self {
            case .listen(let text): return "server.listen: \(text)"
            case .accessLog(let text): return "server.access_log: \(text)"
            }
        }
    }

    private var snapshot: GatewaySnapshot
    private var workers: [Worker] = []
    private var threads: [pthread_t] = []
    private var admin: AdminServer?
    /// Re-resolves endpoint names and runs health checks.
    private var upstreamMonitor: UpstreamMonitor?
    private let draining = Atomic<Bool>(false)
    private let finishedWorkers = Atomic<Int>(0)
    private var logFD: Int32 = -1
    /// What `/status` reports of the configuration, read from the admin thread.
    private let loaded: Locked<LoadedConfig>
    private let startedAtMonotonic = gh_monotonic_ns()

    private struct LoadedConfig: Sendable {
        var snapshot: GatewaySnapshot
        var atNanos: Int64
    }

    public init(snapshot: GatewaySnapshot) {
        self.snapshot = snapshot
        loaded = Locked(LoadedConfig(snapshot: snapshot, atNanos: gh_realtime_ns()))
    }

    public var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// Opens every listener (so address problems surface here) and starts the threads.
    public func start() throws(StartError) {
        let server = snapshot.config.server
        let count = server.workers > 0 ? server.workers : max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        logFD = try Self.openAccessLog(server.accessLog)
        var listeners: [Int32] = []
        do {
            try Listener.ensureAvailable(host: server.listen.host, port: server.listen.port)
        } catch {
            throw .listen(error.description)
        }
        for _ in 0..<count {
            do {
                listeners.append(try Listener.open(host: server.listen.host, port: server.listen.port))
            } catch {
                listeners.forEach { Syscalls.close($0) }
                throw .listen(error.description)
            }
        }
        if let adminAddress = server.adminListen {
            do {
                admin = try AdminServer(address: adminAddress, gateway: self)
            } catch {
                listeners.forEach { Syscalls.close($0) }
                throw .listen("admin_listen \(adminAddress): \(error)")
            }
        }
        AllocatorPolicy.keepFreedMemory()
        let shared = SharedServerState(maxConnections: server.maxConnections)
        for (index, fd) in listeners.enumerated() {
            let worker = Worker(index: index, snapshot: snapshot, listenerFD: fd, shared: shared, logFD: logFD)
            workers.append(worker)
            threads.append(WorkerThread.start(name: "gatehouse-w\(index)") { [self] in
                worker.run()
                finishedWorkers.add(1, ordering: .relaxed)
            })
        }
        admin?.start()
        upstreamMonitor = UpstreamMonitor(sink: .workers(workers), snapshot: snapshot)
        upstreamMonitor?.start()
        snapshot.startKeyRefresh()
    }

    /// The metrics of every worker, for the admin endpoint.
    var workerMetrics: [WorkerMetrics] { workers.map(\.metrics) }
    /// The worker an admin request that needs a store connection (a cache purge) runs on.
    var firstWorker: Worker? { workers.first }

    /// The admin `/status` document for this moment.
    var status: StatusReport {
        let current = loaded.withLock { $0 }
        return StatusReport(version: GatehouseVersion.current,
                            uptimeSeconds: Int64((gh_monotonic_ns() - startedAtMonotonic) / 1_000_000_000),
                            configLoadedAtNanos: current.atNanos, workers: workers.count, draining: isDraining,
                            snapshot: current.snapshot, wallClockSeconds: gh_realtime_ns() / 1_000_000_000,
                            realtime: RealtimeStatus.json(workerMetrics))
    }

    /// Hands a new configuration to every worker; in-flight requests finish under the old one.
    public func reload(_ newer: GatewaySnapshot) {
        snapshot = newer
        loaded.withLock { $0 = LoadedConfig(snapshot: newer, atNanos: gh_realtime_ns()) }
        upstreamMonitor?.install(newer)
        newer.startKeyRefresh()
        for worker in workers {
            worker.loop.post { _ in worker.install(newer) }
        }
    }

    /// Drain (README, "Command line and signals"): stop accepting, finish in-flight requests,
    /// close idle connections; returns when
    /// every worker is done or `timeout` has passed.
    public func drain(timeout: Duration) {
        draining.store(true, ordering: .relaxed)
        upstreamMonitor?.stop()
        for worker in workers {
            worker.loop.post { _ in worker.beginDrain() }
        }
        let deadline = gh_monotonic_ns() + UInt64(timeout.nanoseconds)
        while finishedWorkers.load(ordering: .relaxed) < workers.count && gh_monotonic_ns() < deadline {
            usleep(20_000)
        }
        // Joined when they are done; a worker still busy at the drain deadline is left to exit.
        let allDone = finishedWorkers.load(ordering: .relaxed) == workers.count
        for thread in threads {
            if allDone { WorkerThread.join(thread) } else { WorkerThread.detach(thread) }
        }
        threads.removeAll()
        // /readyz said "draining" until now; the admin thread ends before the gateway does.
        admin?.stop()
        if logFD > 2 { Syscalls.close(logFD) }
    }

    private static func openAccessLog(_ target: AccessLogTarget) throws(StartError) -> Int32 {
        switch target {
        case .off: return -1
        case .stdout: return 1
        case .file(let path):
            switch Syscalls.open(path, O_WRONLY | O_CREAT | O_APPEND, mode: 0o640) {
            case .done(let fd): return Int32(fd)
            case .failed(let code): throw .accessLog("cannot open \(path): \(Syscalls.errorText(code))")
            case .wouldBlock: throw .accessLog("cannot open \(path)")
            }
        }
    }
}
