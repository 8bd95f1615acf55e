import GatehouseConfig
import GatehouseIO
import Synchronization

/// Limit state in a Redis store (`stores.NAME`), shared by every replica: the stages a worker
/// asks about during one loop iteration go as one EVALSHA of `GCRAScript`, on the worker's own
/// connection to the store (`RedisRateLimitBatch`). It answers `.pending` and calls each
/// waiter from the reply handler, on the worker's loop.
///
/// When the store cannot answer — marked down (skipped at once), or this command failed or timed
/// out — the store's `on_failure` decides: `local` asks a memory store of this process (limits
/// are then per replica until Redis is back), `open` allows, `closed` answers 503 UNAVAILABLE.
public final class RedisRateLimitStore: RateLimitStore {
    public let name: String
    let onFailure: StoreConfig.FailurePolicy
    /// The store's prefix and `rl:`, so limit keys never meet the cache's keys.
    let keyPrefix: [UInt8]
    /// For `on_failure: local`; one per store and process, so it outlives reloads.
    let fallback: MemoryRateLimitStore

    static let keyNamespace = "rl:"
    private static let fallbacks = Mutex<[String: MemoryRateLimitStore]>([:])

    init(store: StoreConfig) {
        name = store.name
        onFailure = store.onFailure
        keyPrefix = Array((store.prefix + Self.keyNamespace).utf8)
        fallback = Self.fallbacks.withLock { map in
            if let existing = map[store.name] { return existing }
            let created = MemoryRateLimitStore()
            map[store.name] = created
            return created
        }
    }

    public func decide(_ checks: [RateLimitCheck], now: Int64, waiter: RateLimitWaiter) -> RateLimitAnswer {
        // A store marked down is skipped at once: no request waits for a Redis known to be gone.
        guard let batch = waiter.storeClients.rateLimitBatch(named: name), !batch.client.isDown else {
            return answerWithoutStore(checks, now: now)
        }
        batch.add(checks, waiter: waiter, store: self)
        return .pending
    }

    public func decide(_ check: RateLimitCheck, now: Int64, waiter: RateLimitWaiter) -> RateLimitSingleAnswer {
        switch decide([check], now: now, waiter: waiter) {
        case .decided(let decisions): return .decided(decisions[0])
        case .pending: return .pending
        case .unavailable: return .unavailable
        }
    }

    // MARK: - The round trip

    /// Sends one script call for `batch` (`RedisRateLimitBatch`); every stage's waiter hears
    /// the decisions, or what `on_failure` says when the store cannot answer.
    func send(_ batch: [RedisRateLimitBatch.Stage], on client: RedisClient, reloadingScript: Bool = false) {
        let stages = batch.map { $0.checks }
        let failure = client.send(GCRAScript.evalCommand(stages, prefix: keyPrefix), op: Self.operation) { [self] result in
            switch result {
            case .success(let reply):
                replied(reply, batch, stages, client: client, reloadingScript: reloadingScript)
            case .failure:
                answerWithoutStore(batch, now: Int64(client.loop.now))
            }
        }
        if failure != nil { answerWithoutStore(batch, now: Int64(client.loop.now)) }
    }

    private func replied(_ reply: RedisReply, _ batch: [RedisRateLimitBatch.Stage], _ stages: [[RateLimitCheck]],
                         client: RedisClient, reloadingScript: Bool) {
        if let decisions = GCRAScript.decisions(reply, for: stages) {
            var first = 0
            for stage in batch {
                let count = stage.checks.count
                // A stage of one check, the usual one, hears its decision without an array.
                if count == 1 {
                    stage.waiter.rateLimitDecided(decisions[first])
                } else {
                    stage.waiter.rateLimitsDecided(Array(decisions[first..<first + count]))
                }
                first += count
            }
            return
        }
        if case .error(let text) = reply, text.hasPrefix(Self.noScriptError), !reloadingScript {
            // The script cache was flushed (SCRIPT FLUSH, a failover to a fresh replica): load it
            // again; the EVALSHA right behind it on the same connection finds it.
            _ = client.send(GCRAScript.loadCommand, op: Self.operation) { _ in }
            send(batch, on: client, reloadingScript: true)
            return
        }
        client.reportFailure(op: Self.operation, reason: Self.describe(reply))
        answerWithoutStore(batch, now: Int64(client.loop.now))
    }

    private func answerWithoutStore(_ batch: [RedisRateLimitBatch.Stage], now: Int64) {
        for stage in batch {
            switch answerWithoutStore(stage.checks, now: now) {
            case .decided(let decisions): stage.waiter.rateLimitsDecided(decisions)
            case .unavailable: stage.waiter.rateLimitsUnavailable()
            case .pending: break
            }
        }
    }

    // MARK: - Without the store

    /// What `on_failure` says when Redis cannot answer this stage.
    func answerWithoutStore(_ checks: [RateLimitCheck], now: Int64) -> RateLimitAnswer {
        switch onFailure {
        case .local: return .decided(fallback.decide(checks, now: now))
        case .open: return .decided(checks.map { $0.gcra.decide(tat: nil, now: now).decision })
        case .closed: return .unavailable
        }
    }

    static let operation = "rate_limit"
    static let noScriptError = "NOSCRIPT"

    private static func describe(_ reply: RedisReply) -> String {
        if case .error(let text) = reply { return "rate-limit script failed: \(text)" }
        return "unexpected reply to the rate-limit script"
    }
}
