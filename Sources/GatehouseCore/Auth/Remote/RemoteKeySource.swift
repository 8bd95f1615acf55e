import GatehouseConfig
import GatehouseGraphQL
import GatehouseIO
import Synchronization

/// The remote JWK Set of one provider (`jwks_url` or `discovery`), shared by every worker. The
/// key thread (`KeyFetchService`) fetches it and publishes each good set as an immutable
/// `JWKSet`; workers read the reference under a mutex held just long enough to copy it, and only
/// on a verified-token-cache miss. `generation` changes with every published set, so cached
/// verifications from an older set are not trusted.
final class RemoteKeySource: Sendable {
    /// What workers see.
    struct Published: Sendable {
        var keys: JWKSet?
        /// Unix seconds of the last good fetch (0: none yet).
        var fetchedAt: Int64 = 0
        var lastAttemptAt: Int64 = 0
        var lastError: String?
        /// The `jwks_uri` discovery found, once it has.
        var discoveredURL: KeyURL?
    }

    let providerName: String
    let config: RemoteKeysConfig
    /// Made at start when a fetch will surely need it (an https URL, or a CA file, whose
    /// problems are then start errors); otherwise on the first https fetch, since loading the
    /// system trust store costs about 2 MiB that a provider on plain http never uses.
    private let startTLSContext: TLSContext?
    private let laterTLSContext = Locked<TLSContext?>(nil)
    /// Algorithms of the provider, to report a set that serves none of them.
    let algorithms: [JWTAlgorithm]

    private let published = Locked(Published())
    /// The schedule and the workers waiting for the fetch in progress, under one lock, so a
    /// request never registers for a fetch that has just ended unseen.
    private struct Refresh: Sendable {
        var schedule: KeyRefreshSchedule
        var waitingWorkers: [KeyWaitList] = []
    }

    private let refresh: Locked<Refresh>
    private let currentGeneration = Atomic<Int>(0)
    private let activated = Atomic<Bool>(false)
    let metrics = JWKSMetrics()

    init(providerName: String, config: RemoteKeysConfig, algorithms: [JWTAlgorithm]) throws(TLSError) {
        self.providerName = providerName
        self.config = config
        self.algorithms = algorithms
        // Discovery may name an https key URL even for an http issuer, so an http provider may
        // still need one later. Verification is on, as for upstreams; `tls.ca_file` replaces the
        // system trust store.
        let configuredURL: KeyURL = switch config.location {
        case .url(let url), .discovery(let url): url
        }
        startTLSContext = configuredURL.scheme == .https || config.caFile != nil
            ? try TLSContext.client(caFile: config.caFile, verify: true, certFile: nil, keyFile: nil) : nil
        refresh = Locked(Refresh(schedule: KeyRefreshSchedule(minInterval: UInt64(config.minRefresh.nanoseconds),
                                                             maxInterval: UInt64(config.maxRefresh.nanoseconds))))
    }

    /// The context for an https fetch; nil only when the trust store cannot be loaded (the
    /// fetch then fails rather than going out in plain text).
    var tlsContext: TLSContext? {
        if let startTLSContext { return startTLSContext }
        return laterTLSContext.withLock { context in
            if context == nil {
                context = try? TLSContext.client(caFile: nil, verify: true, certFile: nil, keyFile: nil)
            }
            return context
        }
    }

    // MARK: - Hot path (cache misses only)

    /// The keys in use; nil until the first fetch succeeded.
    var keys: JWKSet? { published.withLock { $0.keys } }

    /// Changes whenever a new key set is published (lock-free, read on every cache hit).
    var generation: Int { currentGeneration.load(ordering: .acquiring) }

    /// A token named a `kid` the set does not have: ask for an early refetch, which runs only when
    /// none started within `refresh.min`. Returns whether one was started.
    @discardableResult
    func unknownKeySeen(now: UInt64) -> Bool {
        guard refresh.withLock({ $0.schedule.claimEarlyFetch(now: now) }) else { return false }
        KeyFetchService.shared.fetchSoon(self)
        return true
    }

    /// When a fetch is running or due now, `list`'s worker is told (through its loop's mailbox)
    /// when it ends, and the answer is true: a request with an unknown `kid` may wait for it.
    func notifyWhenRefetched(_ list: KeyWaitList, now: UInt64) -> Bool {
        refresh.withLock { state in
            guard state.schedule.inFlight || state.schedule.nextFetch <= now else { return false }
            if !state.waitingWorkers.contains(where: { $0 === list }) { state.waitingWorkers.append(list) }
            return true
        }
    }

    // MARK: - Key thread

    /// Starts refreshing on the key thread, once per source.
    func activate() {
        guard !activated.exchange(true, ordering: .relaxed) else { return }
        KeyFetchService.shared.add(self)
    }

    func withSchedule<T>(_ body: (inout KeyRefreshSchedule) -> T) -> T {
        refresh.withLock { body(&$0.schedule) }
    }

    /// A fetch ended (after its keys, if any, were published): `update` records it in the
    /// schedule and every waiting worker is woken.
    func endFetch(_ update: (inout KeyRefreshSchedule) -> Void) {
        let lists = refresh.withLock { state -> [KeyWaitList] in
            update(&state.schedule)
            let taken = state.waitingWorkers
            state.waitingWorkers.removeAll()
            return taken
        }
        let id = ObjectIdentifier(self)
        for list in lists { list.loop.post { _ in list.fetchEnded(id) } }
    }

    var state: Published { published.withLock { $0 } }

    func publish(_ keys: JWKSet, at unixSeconds: Int64) {
        published.withLock {
            $0.keys = keys
            $0.fetchedAt = unixSeconds
            $0.lastAttemptAt = unixSeconds
            $0.lastError = nil
        }
        currentGeneration.add(1, ordering: .releasing)
        metrics.record(.success)
    }

    func recordFailure(_ message: String, at unixSeconds: Int64) {
        published.withLock {
            $0.lastError = message
            $0.lastAttemptAt = unixSeconds
        }
        metrics.record(.failure)
    }

    func remember(discovered url: KeyURL) {
        published.withLock { $0.discoveredURL = url }
    }

    func forgetDiscovery() {
        published.withLock { $0.discoveredURL = nil }
    }

    // MARK: - Status

    /// For `/status`: provider, key count, last refresh, last error.
    func statusJSON(now unixSeconds: Int64) -> JSONValue {
        let state = self.state
        var object: [(String, JSONValue)] = [
            ("provider", .string(providerName)),
            ("keys", .number(String(state.keys?.keys.count ?? 0))),
            ("ready", .bool(state.keys != nil)),
        ]
        object.append(("last_refresh", state.fetchedAt > 0 ? .number(String(state.fetchedAt)) : .null))
        object.append(("key_age_seconds", state.fetchedAt > 0 ? .number(String(unixSeconds - state.fetchedAt)) : .null))
        object.append(("last_error", state.lastError.map { .string($0) } ?? .null))
        return .object(JSONObject(object.map { (key: $0.0, value: $0.1) }))
    }
}
