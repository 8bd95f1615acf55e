/// The response cache's series in the Prometheus text of `/metrics`.
enum CacheMetricsText {
    static func render(_ cache: ResponseCache, escape: (String) -> String) -> String {
        var out = "# HELP gatehouse_cache_requests_total Requests on cached routes, by route and result.\n"
        out += "# TYPE gatehouse_cache_requests_total counter\n"
        for (route, counters) in cache.metrics.all {
            for result in CacheMetrics.Result.allCases {
                out += "gatehouse_cache_requests_total{route=\"\(escape(route))\",result=\"\(result.label)\"} "
                    + "\(counters.load(result.rawValue))\n"
            }
        }
        // A Redis store's entries are shared by every replica and counted by Redis: no series
        // rather than this process's guess (`/status` says `"shared":true`).
        guard let statistics = cache.store.statistics else { return out }
        out += "# HELP gatehouse_cache_evictions_total Entries dropped to stay within cache.max_bytes.\n"
        out += "# TYPE gatehouse_cache_evictions_total counter\n"
        out += "gatehouse_cache_evictions_total \(statistics.evictions)\n"
        out += "# HELP gatehouse_cache_bytes Bytes held by the response cache (bodies, headers and overhead).\n"
        out += "# TYPE gatehouse_cache_bytes gauge\n"
        out += "gatehouse_cache_bytes \(statistics.bytes)\n"
        out += "# HELP gatehouse_cache_entries Entries held by the response cache.\n"
        out += "# TYPE gatehouse_cache_entries gauge\n"
        out += "gatehouse_cache_entries \(statistics.entries)\n"
        return out
    }
}
