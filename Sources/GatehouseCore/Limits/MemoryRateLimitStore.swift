import GatehouseConfig
import GatehouseIO

/// Limit state in this process's memory, shared by every worker: a limit of 10/m is 10 per
/// minute for the whole process, whichever threads the requests land on. Keys are spread over
/// striped maps, each behind its own mutex, so workers rarely wait for each other.
///
/// Memory is bounded. An entry whose TAT is in the past carries no information (the key has
/// its full burst again) and may be dropped at any time. When a stripe reaches its share of
/// `capacity`, its dead entries are dropped; if it is still over `evictionTarget` of its share,
/// the entries with the earliest TATs (the ones closest to full again) are evicted. An evicted
/// live key starts over with a full burst: under a flood of distinct keys the limiter errs
/// towards allowing, never towards refusing a key it has not seen.
public final class MemoryRateLimitStore: RateLimitStore {
    /// The store every route uses unless another is named: one per process.
    public static let process = MemoryRateLimitStore()

    /// Keys held across all stripes by default: a few tens of MiB at most (an entry is a key of
    /// some 40–80 bytes plus its TAT and the map's overhead).
    public static let defaultCapacity = 262_144
    /// Stripes: a power of two (a stripe is picked by the hash's low bits) comfortably above the
    /// worker count of the machines this runs on.
    static let stripeCount = 64
    /// An overfull stripe is brought down to this fraction of its share, so eviction (a sort
    /// of the stripe) happens once per many insertions rather than on each.
    static let evictionTarget = 0.875

    public let name = RateLimitConfig.memoryStore
    /// A mutex is not copyable, so each lives in a small box the array can hold.
    private final class Stripe: Sendable {
        let entries = Locked<[StoredKey: Int64]>([:])
    }

    /// A key with its hash (`RateLimitCheck.keyHash`): the map hashes the one word, never the
    /// key's bytes again.
    private struct StoredKey: Hashable, Sendable {
        let bytes: [UInt8]
        let hash: Int

        init(_ check: RateLimitCheck) {
            bytes = check.key
            hash = check.keyHash
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    private let stripes: [Stripe]
    private let stripeCapacity: Int

    public init(capacity: Int = defaultCapacity) {
        stripeCapacity = max(1, capacity / Self.stripeCount)
        stripes = (0..<Self.stripeCount).map { _ in Stripe() }
    }

    public func decide(_ checks: [RateLimitCheck], now: Int64, waiter: RateLimitWaiter) -> RateLimitAnswer {
        .decided(decide(checks, now: now))
    }

    public func decide(_ check: RateLimitCheck, now: Int64, waiter: RateLimitWaiter) -> RateLimitSingleAnswer {
        .decided(decide(check, now: now))
    }

    /// The decisions for one stage. Each check is decided under its stripe's lock; when one
    /// refuses, the ones that allowed are taken back, so a refused request counts nowhere.
    public func decide(_ checks: [RateLimitCheck], now: Int64) -> [GCRADecision] {
        let decisions = checks.map { decide($0, now: now) }
        if decisions.contains(where: { !$0.allowed }) {
            for (check, decision) in zip(checks, decisions) where decision.allowed {
                let key = StoredKey(check)
                stripe(for: key).entries.withLock { map in
                    if let tat = map[key] { map[key] = check.gcra.refund(tat: tat) }
                }
            }
        }
        return decisions
    }

    /// The decision for a stage of one check (nothing to take back), under its stripe's lock.
    public func decide(_ check: RateLimitCheck, now: Int64) -> GCRADecision {
        let key = StoredKey(check)
        return stripe(for: key).entries.withLock { map in
            // A key seen before is updated where it is: the key is looked up once, not three times.
            if let index = map.index(forKey: key) {
                let (decision, tat) = check.gcra.decide(tat: map.values[index], now: now)
                if decision.allowed { map.values[index] = tat }
                return decision
            }
            let (decision, tat) = check.gcra.decide(tat: nil, now: now)
            if decision.allowed { store(tat, for: key, in: &map, now: now) }
            return decision
        }
    }

    /// Entries held, for tests.
    var count: Int { stripes.reduce(0) { total, stripe in total + stripe.entries.withLock { $0.count } } }

    // MARK: - Stripes

    private func stripe(for key: StoredKey) -> Stripe {
        // The low bits of the seeded hash: the map mixes the whole word again, so keys of one
        // stripe still spread over its buckets.
        stripes[key.hash & (Self.stripeCount - 1)]
    }

    private func store(_ tat: Int64, for key: StoredKey, in map: inout [StoredKey: Int64], now: Int64) {
        if map[key] == nil && map.count >= stripeCapacity { makeRoom(in: &map, now: now) }
        map[key] = tat
    }

    private func makeRoom(in map: inout [StoredKey: Int64], now: Int64) {
        map = map.filter { $0.value > now }
        let target = Int(Double(stripeCapacity) * Self.evictionTarget)
        guard map.count > target else { return }
        let evicted = map.sorted { $0.value < $1.value }.prefix(map.count - target)
        for (key, _) in evicted { map.removeValue(forKey: key) }
    }
}
