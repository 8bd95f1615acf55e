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

    private(set) var snapshot: GatewaySnapshot
    private var workers: [Worker] = []
    private var threads: [pthread_t] = []
    private var admin: AdminServer?
    private let draining = Atomic<Bool>(false)
    private let finishedWorkers = Atomic<Int>(0)
    private var logFD: Int32 = -1

    public init(snapshot: GatewaySnapshot) {
        self.snapshot = snapshot
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
    }

    /// The metrics of every worker, for the admin endpoint.
    var workerMetrics: [WorkerMetrics] { workers.map(\.metrics) }

    /// Hands a new configuration to every worker; in-flight requests finish under the old one.
    public func reload(_ newer: GatewaySnapshot) {
        snapshot = newer
        for worker in workers {
            worker.loop.post { _ in worker.install(newer) }
        }
    }

    /// SPEC §1: stop accepting, finish in-flight requests, close idle connections; returns when
    /// every worker is done or `timeout` has passed.
    public func drain(timeout: Duration) {
        draining.store(true, ordering: .relaxed)
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
        if logFD > 2 { Glibc.close(logFD) }
    }

    private static func openAccessLog(_ target: AccessLogTarget) throws(StartError) -> Int32 {
        switch target {
        case .off: return -1
        case .stdout: return 1
        case .file(let path):
            let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
            if fd < 0 { throw .accessLog("cannot open \(path): \(Syscalls.errorText(errno))") }
            return fd
        }
    }
}
