import GatehouseIO

/// Turns what one worker's Redis client reports into the store's metrics and log lines.
final class StoreObserver: RedisClientObserver {
    let series: StoreMetrics.Series
    /// Whether this worker's connection counts as down in `series` (it starts up).
    private var countedDown = false

    init(series: StoreMetrics.Series) { self.series = series }

    func redisClient(_ client: RedisClient, isUp: Bool, reason: String?) {
        guard countedDown == isUp else { return }
        countedDown = !isUp
        guard series.connectionChanged(isUp: isUp) else { return }
        if isUp {
            ErrorLog.info("store \(series.store) (\(series.url)) is up again")
        } else {
            ErrorLog.error("store \(series.store) (\(series.url)) is down: \(reason ?? "failures"); "
                + "skipping it and retrying with backoff")
        }
    }

    func redisClient(_ client: RedisClient, failed op: String, reason: String) {
        series.recordError(op, reason: reason)
    }

    func redisClient(_ client: RedisClient, answered op: String, latencyNanos: UInt64) {
        series.recordLatency(nanos: latencyNanos)
    }

    /// The client is being dropped (reload, drain): it no longer holds the store down.
    func released() {
        if countedDown { _ = series.connectionChanged(isUp: true) }
        countedDown = false
    }
}
