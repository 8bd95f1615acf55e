import GatehouseIO

/// One worker's connections to the stores: a Redis client per store, on the worker's loop,
/// shared with no other thread. Kept across reloads while a store's settings do not change.
public final class WorkerStores {
    /// A class: the map's lookup on every request then copies one reference, not four.
    private final class Entry {
        let store: CompiledStore
        let client: RedisClient
        let observer: StoreObserver
        /// The rate-limit stages waiting for this iteration's script call on `client`.
        let rateLimitBatch: RedisRateLimitBatch

        init(store: CompiledStore, client: RedisClient, observer: StoreObserver, rateLimitBatch: RedisRateLimitBatch) {
            self.store = store
            self.client = client
            self.observer = observer
            self.rateLimitBatch = rateLimitBatch
        }
    }

    private let loop: EventLoop
    private var entries: [String: Entry] = [:]

    public init(loop: EventLoop) { self.loop = loop }

    /// Connects to every store of a new snapshot; clients of stores that left or changed close.
    func install(_ stores: [CompiledStore]) {
        var kept: [String: Entry] = [:]
        for store in stores {
            if let entry = entries[store.config.name], entry.store.options == store.options {
                kept[store.config.name] = Entry(store: store, client: entry.client, observer: entry.observer,
                                                rateLimitBatch: entry.rateLimitBatch)
                continue
            }
            let client = RedisClient(loop: loop, options: store.options)
            let observer = StoreObserver(series: store.series)
            client.observer = observer
            kept[store.config.name] = Entry(store: store, client: client, observer: observer,
                                            rateLimitBatch: RedisRateLimitBatch(client: client))
            client.start()
        }
        for (name, entry) in entries where kept[name]?.client !== entry.client { close(entry) }
        entries = kept
    }

    /// This worker's client for the store `name`, if the configuration has it.
    func client(named name: String) -> RedisClient? { entries[name]?.client }

    /// This worker's rate-limit batch for the store `name`, if the configuration has it.
    func rateLimitBatch(named name: String) -> RedisRateLimitBatch? { entries[name]?.rateLimitBatch }

    func closeAll() {
        for entry in entries.values { close(entry) }
        entries.removeAll()
    }

    private func close(_ entry: Entry) {
        entry.client.close()
        entry.observer.released()
    }
}
