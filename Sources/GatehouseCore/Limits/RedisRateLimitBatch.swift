import GatehouseIO

/// The limit stages one worker asks one Redis store about during one loop iteration, sent as
/// one EVALSHA when the iteration ends (`EventLoop.defer_`), which is when hiredis writes
/// anyway: batching adds no wait, and Redis runs one script for the whole batch instead of one
/// per request. A script call costs Redis far more than the few GCRA steps inside it, and that
/// CPU is taken from the gateway and its upstreams on the same machine.
///
/// The stages' checks are kept in one list, stage after stage, so a stage of one check (the
/// usual one) costs no array of its own.
///
/// One per worker and store (`WorkerStores`), used only on the worker's loop thread.
final class RedisRateLimitBatch {
    /// One request's stage: how many of the batch's checks are its (the next ones in order),
    /// and who waits for their decisions.
    struct Stage {
        let checkCount: Int
        let waiter: RateLimitWaiter
    }

    /// Stages per script call at most: a full batch is sent at once and a new one begun, so a
    /// burst of requests never builds one huge command.
    static let maximumStages = 128

    let client: RedisClient
    /// The store the waiting stages belong to (its key prefix and `on_failure`); a reload may
    /// bring a new one for the same connection, whose stages then go in a batch of their own.
    private var store: RedisRateLimitStore?
    private var checks: [RateLimitCheck] = []
    private var stages: [Stage] = []
    private var flushScheduled = false
    /// The rates' numbers as the script takes them, written once per rate, not per batch.
    private var parameters = GCRAScriptParameters()

    init(client: RedisClient) { self.client = client }

    /// Queues a stage; its waiter is called on this loop once the batch's reply (or failure)
    /// arrives.
    func add(_ checks: [RateLimitCheck], waiter: RateLimitWaiter, store: RedisRateLimitStore) {
        prepare(for: store)
        self.checks.append(contentsOf: checks)
        stages.append(Stage(checkCount: checks.count, waiter: waiter))
    }

    /// Queues a stage of one check.
    func add(_ check: RateLimitCheck, waiter: RateLimitWaiter, store: RedisRateLimitStore) {
        prepare(for: store)
        checks.append(check)
        stages.append(Stage(checkCount: 1, waiter: waiter))
    }

    /// Sends what waits when the new stage cannot join it, and makes sure the batch goes out
    /// when this iteration ends.
    private func prepare(for store: RedisRateLimitStore) {
        if let current = self.store, current !== store || stages.count >= Self.maximumStages { send() }
        self.store = store
        if stages.isEmpty {
            stages.reserveCapacity(16)
            checks.reserveCapacity(16)
        }
        if !flushScheduled {
            flushScheduled = true
            client.loop.defer_ { [self] in
                flushScheduled = false
                send()
            }
        }
    }

    private func send() {
        guard let store, !stages.isEmpty else { return }
        let (batchChecks, batchStages) = (checks, stages)
        checks = []
        stages = []
        store.send(batchChecks, batchStages, on: client, parameters: &parameters)
    }
}
