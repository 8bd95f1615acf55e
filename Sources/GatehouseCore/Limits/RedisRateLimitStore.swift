import GatehouseConfig
import GatehouseIO
import Synchronization

/// Limit state in a Redis store (`stores.NAME`), shared by every replica: one EVALSHA of
/// `GCRAScript` per limit stage, on the worker's own connection to the store. It answers
/// `.pending` and calls the waiter from the reply handler, on the worker's loop.
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
        guard let client = waiter.storeClients.client(named: name) else { return answerWithoutStore(checks, now: now) }
        if send(checks, on: client, waiter: waiter, reloadingScript: false) { return .pending }
        return answerWithoutStore(checks, now: now)
    }

    // MARK: - The round trip

    /// Sends the stage's script; false when the client refused at once (down, not connected).
    private func send(_ checks: [RateLimitCheck], on client: RedisClient, waiter: RateLimitWaiter,
                      reloadingScript: Bool) -> Bool {
        let failure = client.send(GCRAScript.evalCommand(checks, prefix: keyPrefix), op: Self.operation) { [self] result in
            switch result {
            case .success(let reply):
                replied(reply, checks, client: client, waiter: waiter, reloadingScript: reloadingScript)
            case .failure:
                deliver(answerWithoutStore(checks, now: Int64(client.loop.now)), to: waiter)
            }
        }
        return failure == nil
    }

    private func replied(_ reply: RedisReply, _ checks: [RateLimitCheck], client: RedisClient, waiter: RateLimitWaiter,
                         reloadingScript: Bool) {
        if let decisions = GCRAScript.decisions(reply, for: checks) {
            waiter.rateLimitsDecided(decisions)
            return
        }
        if case .error(let text) = reply, text.hasPrefix(Self.noScriptError), !reloadingScript {
            // The script cache was flushed (SCRIPT FLUSH, a failover to a fresh replica): load it
            // again; the EVALSHA right behind it on the same connection finds it.
            _ = client.send(GCRAScript.loadCommand, op: Self.operation) { _ in }
            if send(checks, on: client, waiter: waiter, reloadingScript: true) { return }
        } else {
            client.reportFailure(op: Self.operation, reason: Self.describe(reply))
        }
        deliver(answerWithoutStore(checks, now: Int64(client.loop.now)), to: waiter)
    }

    private func deliver(_ answer: RateLimitAnswer, to waiter: RateLimitWaiter) {
        switch answer {
        case .decided(let decisions): waiter.rateLimitsDecided(decisions)
        case .unavailable: waiter.rateLimitsUnavailable()
        case .pending: break
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
