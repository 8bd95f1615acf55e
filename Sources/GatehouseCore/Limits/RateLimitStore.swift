/// One limit to apply to one request: the GCRA parameters and the key, already namespaced by
/// route and policy.
public struct RateLimitCheck: Sendable {
    public let gcra: GCRA
    public let key: [UInt8]
    /// `key` through this process's seeded hasher: the memory store picks the stripe with it and
    /// its map hashes only this word, and a Redis batch compares it before the bytes. A key's
    /// bytes are hashed once — at compile time for a `route` key, the same on every request.
    public let keyHash: Int

    public init(gcra: GCRA, key: [UInt8]) {
        self.gcra = gcra
        self.key = key
        var hasher = Hasher()
        key.withUnsafeBytes { hasher.combine(bytes: $0) }
        keyHash = hasher.finalize()
    }
}

/// A store's answer to a stage's checks.
public enum RateLimitAnswer: Sendable {
    /// Decided at once, one decision per check, in order.
    case decided([GCRADecision])
    /// The store asked someone else (a Redis round trip); it will call the waiter later.
    case pending
    /// The store cannot answer and its `on_failure` is `closed`: 503 UNAVAILABLE.
    case unavailable
}

/// A store's answer to a stage of one check, the usual stage: the same as `RateLimitAnswer`
/// without an array to allocate on every request.
public enum RateLimitSingleAnswer: Sendable {
    case decided(GCRADecision)
    /// As `RateLimitAnswer.pending`: the waiter hears one decision.
    case pending
    case unavailable
}

/// The exchange waiting for a store that answered `.pending`.
public protocol RateLimitWaiter: AnyObject {
    /// Called on the waiter's own event loop with one decision per check, in order.
    func rateLimitsDecided(_ decisions: [GCRADecision])
    /// The same for a stage of one check.
    func rateLimitDecided(_ decision: GCRADecision)
    /// Called on the waiter's own event loop when the store could not decide (`on_failure: closed`).
    func rateLimitsUnavailable()
    /// The connections to the stores of the worker the waiter runs on (a store asks on these).
    var storeClients: WorkerStores { get }
}

/// Where limit state lives. All checks of one call are one stage of one request: either every
/// one allows it and each counts it, or the request is refused and none counts it (a refused
/// request must not use up the allowance of the other limits).
///
/// The memory store answers `.decided` at once. A store that needs a round trip (Redis: one
/// GCRA script over all keys of the stage, run with EVALSHA from the worker's epoll loop)
/// returns `.pending`, keeps `waiter` and calls `rateLimitsDecided` on `loop` when the reply
/// arrives; the exchange then resumes at the phase after the limit stage, exactly as it goes
/// on after `.decided`.
public protocol RateLimitStore: Sendable {
    /// Store name as the config writes it (`memory`).
    var name: String { get }

    func decide(_ checks: [RateLimitCheck], now: Int64, waiter: RateLimitWaiter) -> RateLimitAnswer
    /// A stage of one check, decided exactly as `decide([check], …)` would be.
    func decide(_ check: RateLimitCheck, now: Int64, waiter: RateLimitWaiter) -> RateLimitSingleAnswer
}
