import CLinux
import GatehouseConfig
import GatehouseGraphQL
import GatehouseIO

/// Keeps one provider's remote key set fresh, on the key thread: fetches when the schedule says
/// (discovery first when the provider uses it), publishes good sets, keeps the last good keys
/// on a failure. Ends itself once its source is gone (the configuration that made it was replaced).
final class KeyRefresher: TimerTarget {
    /// Refreshers by source, touched only on the key thread.
    nonisolated(unsafe) static var running: [ObjectIdentifier: KeyRefresher] = [:]

    /// One fetch (connect, TLS, answer) must finish within this; a hanging server counts as a failure.
    static let fetchTimeout: UInt64 = 5_000_000_000

    private weak var source: RemoteKeySource?
    private let sourceID: ObjectIdentifier
    private let loop: EventLoop
    private var fetch: KeyFetch?

    var deadline: UInt64 = 0
    var scheduledDeadline: UInt64 = 0

    init(source: RemoteKeySource, loop: EventLoop) {
        self.source = source
        sourceID = ObjectIdentifier(source)
        self.loop = loop
    }

    func deadlineReached(now: UInt64) { tick() }

    /// Fetches if due; otherwise sleeps until the schedule's next fetch.
    func tick() {
        guard let source else {
            Self.running[sourceID] = nil
            return
        }
        let now = gh_monotonic_ns()
        if source.withSchedule({ $0.startIfDue(now: now) }) {
            startFetch(source)
        } else if !source.withSchedule(\.inFlight) {
            deadline = max(source.withSchedule(\.nextFetch), now + 1)
            loop.scheduleDeadline(self)
        }
    }

    private func startFetch(_ source: RemoteKeySource) {
        switch source.config.location {
        case .url(let url):
            fetchKeys(source, url)
        case .discovery(let documentURL):
            if let known = source.state.discoveredURL { return fetchKeys(source, known) }
            get(documentURL, source) { [weak self] document in
                guard let self, let source = self.source else { return }
                switch KeyDocuments.jwksURI(fromDiscovery: document, documentURL: documentURL, issuer: source.config.issuer) {
                case .success(let url):
                    source.remember(discovered: url)
                    self.fetchKeys(source, url)
                case .failure(let problem):
                    self.failed(source, "discovery \(documentURL): \(problem)")
                }
            }
        }
    }

    private func fetchKeys(_ source: RemoteKeySource, _ url: KeyURL) {
        get(url, source) { [weak self] document in
            guard let self, let source = self.source else { return }
            switch KeyDocuments.keySet(document, algorithms: source.algorithms) {
            case .success(let keys):
                let now = gh_monotonic_ns()
                source.publish(keys, at: gh_realtime_ns() / 1_000_000_000)
                let maxAge = document.cacheControl.flatMap(CacheControlMaxAge.parse)
                source.endFetch { $0.succeeded(now: now, maxAgeSeconds: maxAge) }
                self.tick()
            case .failure(let problem):
                self.failed(source, "\(url): \(problem)")
            }
        }
    }

    private func get(_ url: KeyURL, _ source: RemoteKeySource, then: @escaping (FetchedDocument) -> Void) {
        fetch = KeyFetch(url: url, tlsContext: url.scheme == .https ? source.tlsContext : nil, loop: loop,
                         timeout: Self.fetchTimeout) { [weak self] result in
            guard let self else { return }
            self.loop.defer_ { self.fetch = nil }
            switch result {
            case .success(let document): then(document)
            case .failure(let error):
                guard let source = self.source else { return }
                self.failed(source, error.description)
            }
        }
    }

    private func failed(_ source: RemoteKeySource, _ message: String) {
        let hadKeys = source.keys != nil
        source.recordFailure(message, at: gh_realtime_ns() / 1_000_000_000)
        source.forgetDiscovery()
        source.endFetch { $0.failed(now: gh_monotonic_ns()) }
        ErrorLog.warn("auth.\(source.providerName): key set refresh failed: \(message)"
                      + (hadKeys ? "; keeping the previous keys" : "; routes using it answer 503 until a fetch succeeds"))
        tick()
    }
}
