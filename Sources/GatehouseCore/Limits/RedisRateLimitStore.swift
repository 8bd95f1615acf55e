import GatehouseConfig
import GatehouseIO

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
    private static let fallbacks = Locked<[String: MemoryRateLimitStore]>([:])

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
        guard let batch = waiter.storeClients.rateLimitBatch(named: name), !batch.client.isDown else {
            switch answerWithoutStore([check], now: now) {
            case .decided(let decisions): return .decided(decisions[0])
            case .pending: return .pending
            case .unavailable: return .unavailable
            }
        }
        batch.add(check, waiter: waiter, store: self)
        return .pending
    }

    // MARK: - The round trip

    /// Sends one script call for a batch (`RedisRateLimitBatch`): `checks` are its stages'
    /// checks, stage after stage. Every stage's waiter hears its decisions, or what `on_failure`
    /// says when the store cannot answer.
    func send(_ checks: [RateLimitCheck], _ stages: [RedisRateLimitBatch.Stage], on client: RedisClient,
              parameters: inout GCRAScriptParameters) {
        let call = GCRAScriptCall(checks, stageSizes: stages.lazy.map { $0.checkCount }, prefix: keyPrefix,
                                  parameters: &parameters)
        issue(call, checks, stages, on: client, reloadingScript: false)
    }

    private func issue(_ call: GCRAScriptCall, _ checks: [RateLimitCheck], _ stages: [RedisRateLimitBatch.Stage],
                       on client: RedisClient, reloadingScript: Bool) {
        let failure = client.send(call.command, op: Self.operation) { [self] result in
            switch result {
            case .success(let reply):
                replied(reply, checks, stages, call: call, client: client, reloadingScript: reloadingScript)
            case .failure:
                answerWithoutStore(checks, stages, now: Int64(client.loop.now))
            }
        }
        if failure != nil { answerWithoutStore(checks, stages, now: Int64(client.loop.now)) }
    }

    private func replied(_ reply: RedisReply, _ checks: [RateLimitCheck], _ stages: [RedisRateLimitBatch.Stage],
                         call: GCRAScriptCall, client: RedisClient, reloadingScript: Bool) {
        if let decisions = call.decisions(reply, for: checks, stageSizes: stages.lazy.map { $0.checkCount }) {
            var first = 0
            for stage in stages {
                // A stage of one check, the usual one, hears its decision without an array.
                if stage.checkCount == 1 {
                    stage.waiter.rateLimitDecided(decisions[first])
                } else {
                    stage.waiter.rateLimitsDecided(Array(decisions[first..<first + stage.checkCount]))
                }
                first += stage.checkCount
            }
            return
        }
        if case .error(let text) = reply, text.hasPrefix(Self.noScriptError), !reloadingScript {
            // The script cache was flushed (SCRIPT FLUSH, a failover to a fresh replica): load it
            // again; the EVALSHA right behind it on the same connection finds it.
            _ = client.send(GCRAScript.loadCommand, op: Self.operation) { _ in }
            issue(call, checks, stages, on: client, reloadingScript: true)
            return
        }
        client.reportFailure(op: Self.operation, reason: Self.describe(reply))
        answerWithoutStore(checks, stages, now: Int64(client.loop.now))
    }

    private func answerWithoutStore(_ checks: [RateLimitCheck], _ stages: [RedisRateLimitBatch.Stage], now: Int64) {
        var first = 0
        for stage in stages {
            switch answerWithoutStore(Array(checks[first..<first + stage.checkCount]), now: now) {
            case .decided(let decisions): stage.waiter.rateLimitsDecided(decisions)
            case .unavailable: stage.waiter.rateLimitsUnavailable()
            case .pending: break
            }
            first += stage.checkCount
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
