/// The shared stores' series: `gatehouse_store_up{store}`, `gatehouse_store_errors_total{store,op}`
/// and `gatehouse_store_latency_seconds{store}`.
extension PrometheusText {
    static func renderStores(_ metrics: StoreMetrics) -> String {
        let all = metrics.all
        var out = "# HELP gatehouse_store_up 1 while every worker's connection to the store is up, 0 while one is marked down.\n"
        out += "# TYPE gatehouse_store_up gauge\n"
        for series in all {
            out += "gatehouse_store_up{store=\"\(escape(series.store))\"} \(series.isUp ? 1 : 0)\n"
        }
        out += "# HELP gatehouse_store_errors_total Store commands that failed or timed out, and broken connections, by operation.\n"
        out += "# TYPE gatehouse_store_errors_total counter\n"
        for series in all {
            for op in StoreMetrics.Operation.allCases {
                out += "gatehouse_store_errors_total{store=\"\(escape(series.store))\",op=\"\(op.label)\"} "
                    + "\(series.errors.load(op.rawValue))\n"
            }
        }
        out += "# HELP gatehouse_store_latency_seconds Time from sending a store command to its reply.\n"
        out += "# TYPE gatehouse_store_latency_seconds histogram\n"
        let bounds = StoreMetrics.latencyBounds
        for series in all {
            let label = "store=\"\(escape(series.store))\""
            var cumulative = 0
            for (index, bound) in bounds.enumerated() {
                cumulative += series.latency.load(index)
                out += "gatehouse_store_latency_seconds_bucket{\(label),le=\"\(bound)\"} \(cumulative)\n"
            }
            cumulative += series.latency.load(bounds.count)
            out += "gatehouse_store_latency_seconds_bucket{\(label),le=\"+Inf\"} \(cumulative)\n"
            out += "gatehouse_store_latency_seconds_sum{\(label)} \(Double(series.latency.load(bounds.count + 1)) / 1e9)\n"
            out += "gatehouse_store_latency_seconds_count{\(label)} \(series.latency.load(bounds.count + 2))\n"
        }
        return out
    }
}
