import GatehouseIO

/// The limit stages one worker asks one Redis store about during one loop iteration, sent as
/// one EVALSHA when the iteration ends (`EventLoop.defer_`), which is when hiredis writes
/// anyway: batching adds no wait, and Redis runs one script for the whole batch instead of one
/// per request. A script call costs Redis far more than the few GCRA steps inside it, and that
/// CPU is taken from the gateway and its upstreams on the same machine.
///
/// One per worker and store (`WorkerStores`), used only on the worker's loop thread.
final class RedisRateLimitBatch {
    struct Stage {
        let checks: [RateLimitCheck]
        let waiter: RateLimitWaiter
    }

    /// Stages per script call at most: a full batch is sent at once and a new one begun, so a
    /// burst of requests never builds one huge command.
    static let maximumStages = 128

    let client: RedisClient
    /// The store the waiting stages belong to (its key prefix and `on_failure`); a reload may
    /// bring a new one for the same connection, whose stages then go in a batch of their own.
    private var store: RedisRateLimitStore?
    private var stages: [Stage] = []
    private var flushScheduled = false

    init(client: RedisClient) { self.client = client }

    /// Queues a stage; its waiter is called on this loop once the batch's reply (or failure)
    /// arrives.
    func add(_ checks: [RateLimitCheck], waiter: RateLimitWaiter, store: RedisRateLimitStore) {
        if let current = self.store, current !== store || stages.count >= Self.maximumStages { send() }
        self.store = store
        if stages.isEmpty { stages.reserveCapacity(16) }
        stages.append(Stage(checks: checks, waiter: waiter))
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
        let batch = stages
        stages = []
        store.send(batch, on: client)
    }
}
