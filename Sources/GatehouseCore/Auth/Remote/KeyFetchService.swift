import CLinux
import GatehouseIO

/// The key thread: one event loop, started with the first remote key set, on which every
/// provider's refresher runs. Workers never wait on it; they read what it publishes.
final class KeyFetchService: Sendable {
    static let shared = KeyFetchService()

    private let loop = Locked<EventLoop?>(nil)
    /// Every source ever activated, weakly: a source dropped with its configuration stops refreshing.
    private let sources = Locked<[WeakKeySource]>([])

    private func keyLoop() -> EventLoop {
        loop.withLock { current in
            if let current { return current }
            let created = EventLoop(name: "gatehouse-keys")
            WorkerThread.detach(WorkerThread.start(name: "gatehouse-keys") { created.run() })
            current = created
            return created
        }
    }

    func add(_ source: RemoteKeySource) {
        sources.withLock { list in
            list.removeAll { $0.source == nil }
            list.append(WeakKeySource(source))
        }
        let weakSource = WeakKeySource(source)
        keyLoop().post { loop in
            guard let source = weakSource.source else { return }
            let refresher = KeyRefresher(source: source, loop: loop)
            KeyRefresher.running[ObjectIdentifier(source)] = refresher
            refresher.tick()
        }
    }

    /// An early refetch was granted (unknown `kid`): wake the source's refresher now.
    func fetchSoon(_ source: RemoteKeySource) {
        let weakSource = WeakKeySource(source)
        keyLoop().post { _ in
            guard let source = weakSource.source else { return }
            KeyRefresher.running[ObjectIdentifier(source)]?.tick()
        }
    }

    /// The sources in use, for metrics.
    var activeSources: [RemoteKeySource] {
        sources.withLock { $0.compactMap(\.source) }
    }
}

final class WeakKeySource: @unchecked Sendable {
    weak var source: RemoteKeySource?
    init(_ source: RemoteKeySource) { self.source = source }
}
