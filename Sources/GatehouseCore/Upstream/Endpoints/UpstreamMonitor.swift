import GatehouseIO
import Glibc
import Synchronization

/// The thread that keeps endpoint lists and health current, off the event loops: it re-resolves
/// names every `resolve_interval` and runs the active health checks, and posts what changed to
/// every worker's mailbox (immutable address lists, health verdicts). Workers never block on it.
final class UpstreamMonitor: @unchecked Sendable {
    private struct Watch {
        var upstream: CompiledUpstream
        var addresses: [SocketAddress]
        var nextResolve: UInt64 = 0
        var nextCheck: UInt64 = 0
        var trackers: [String: HealthTracker] = [:]

        var labels: [String] { addresses.map(UpstreamEndpoint.label(for:)) }
    }

    private let sink: UpstreamMonitorSink
    private let resolver: any HostResolver
    private let board: UpstreamStatusBoard
    private let pending = Locked<GatewaySnapshot?>(nil)
    private let stopped = Atomic<Bool>(false)
    /// Rung by a reload and by `stop`: between them the thread sleeps until its next check or
    /// resolve is due, and with neither configured, until one of them comes.
    private let doorbell = Doorbell()
    private var thread: pthread_t?
    /// Touched by the monitor thread only.
    private var watches: [String: Watch] = [:]

    init(sink: UpstreamMonitorSink, snapshot: GatewaySnapshot, resolver: any HostResolver = GatewaySnapshot.resolver,
         board: UpstreamStatusBoard = .process) {
        self.sink = sink
        self.resolver = resolver
        self.board = board
        pending.withLock { $0 = snapshot }
    }

    func start() {
        thread = WorkerThread.start(name: "gatehouse-upstreams") { [self] in run() }
    }

    /// A reload: the thread wakes and picks the new upstreams up.
    func install(_ snapshot: GatewaySnapshot) {
        pending.withLock { $0 = snapshot }
        doorbell.ring()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        doorbell.ring()
        if let thread { WorkerThread.join(thread) }
        thread = nil
    }

    private func run() {
        while !stopped.load(ordering: .relaxed) {
            let nextDue = runOnce(now: MonotonicClock.nanoseconds)
            let now = MonotonicClock.nanoseconds
            if nextDue > now { doorbell.sleep(nanoseconds: nextDue == .max ? nil : nextDue - now) }
        }
    }

    /// Takes a pending configuration and does what is due at `now` (the thread's loop; tests
    /// call it with a manual clock). Returns when something is next due.
    func runOnce(now: UInt64) -> UInt64 {
        if let snapshot = pending.withLock({ value -> GatewaySnapshot? in defer { value = nil }; return value }) {
            adopt(snapshot)
        }
        var nextDue = UInt64.max
        for key in Array(watches.keys) {
            nextDue = min(nextDue, tick(key, now: now))
            if stopped.load(ordering: .relaxed) { break }
        }
        return nextDue
    }

    private func adopt(_ snapshot: GatewaySnapshot) {
        var newer: [String: Watch] = [:]
        for upstream in snapshot.upstreams
        where upstream.config.resolveInterval != nil || upstream.config.healthCheck != nil {
            var watch = watches[upstream.poolKey] ?? Watch(upstream: upstream, addresses: upstream.addresses)
            watch.upstream = upstream
            watch.addresses = upstream.addresses
            newer[upstream.poolKey] = watch
        }
        watches = newer
    }

    /// Runs what is due for one upstream; returns when it next has something to do.
    private func tick(_ key: String, now: UInt64) -> UInt64 {
        guard var watch = watches[key] else { return .max }
        let config = watch.upstream.config
        var nextDue = UInt64.max
        if let interval = config.resolveInterval {
            if now >= watch.nextResolve {
                watch.nextResolve = now + UInt64(interval.nanoseconds)
                resolve(&watch, key: key)
            }
            nextDue = min(nextDue, watch.nextResolve)
        }
        if let check = config.healthCheck {
            if now >= watch.nextCheck {
                watch.nextCheck = now + UInt64(check.interval.nanoseconds)
                runChecks(&watch, key: key)
            }
            nextDue = min(nextDue, watch.nextCheck)
        }
        watches[key] = watch
        return nextDue
    }

    /// A name that resolves to nothing keeps its last addresses: a DNS outage does not empty an upstream.
    private func resolve(_ watch: inout Watch, key: String) {
        let fresh = EndpointName.resolve(watch.upstream.endpointNames, with: resolver)
        let labels = fresh.map(UpstreamEndpoint.label(for:))
        guard !fresh.isEmpty, labels != watch.labels else { return }
        ErrorLog.warn("upstream \(watch.upstream.config.name): endpoints now \(labels.joined(separator: ", "))")
        watch.addresses = fresh
        sink.endpointsChanged(key, fresh)
    }

    private func runChecks(_ watch: inout Watch, key: String) {
        guard let check = watch.upstream.config.healthCheck else { return }
        let name = watch.upstream.config.name
        let labels = watch.labels
        watch.trackers = watch.trackers.filter { labels.contains($0.key) }
        for (address, label) in zip(watch.addresses, labels) {
            let passed = HealthProbe.check(address, path: check.path, hostHeader: watch.upstream.config.url.hostHeader,
                                           tcpOnly: watch.upstream.tlsContext != nil,
                                           timeoutNanos: UInt64(check.timeout.nanoseconds))
            var tracker = watch.trackers[label] ?? HealthTracker(healthy: check.healthy, unhealthy: check.unhealthy)
            if tracker.record(passed: passed) {
                let healthy = tracker.isHealthy
                ErrorLog.warn("upstream \(name): endpoint \(label) is \(healthy ? "healthy" : "unhealthy") again")
                board.setHealthy(upstream: name, endpoint: label, healthy)
                sink.healthChanged(key, label, healthy)
            }
            watch.trackers[label] = tracker
        }
    }
}

/// Where the monitor's findings go: every worker's mailbox (tests collect them instead).
struct UpstreamMonitorSink: Sendable {
    /// (pool key, the new address list).
    var endpointsChanged: @Sendable (String, [SocketAddress]) -> Void
    /// (pool key, endpoint label, healthy).
    var healthChanged: @Sendable (String, String, Bool) -> Void

    static func workers(_ workers: [Worker]) -> UpstreamMonitorSink {
        UpstreamMonitorSink(
            endpointsChanged: { key, addresses in
                for worker in workers { worker.loop.post { _ in worker.applyEndpoints(poolKey: key, addresses) } }
            },
            healthChanged: { key, label, healthy in
                for worker in workers {
                    worker.loop.post { _ in worker.applyHealth(poolKey: key, endpoint: label, healthy: healthy) }
                }
            })
    }
}
