/// Renders the metrics of every worker, summed, in the Prometheus text exposition format.
public enum PrometheusText {
    public static func render(_ workers: [WorkerMetrics], rateLimits: RateLimitMetrics = .process,
                              stores: StoreMetrics = .process) -> String {
        var out = ""
        let routeGroups = Dictionary(grouping: workers.flatMap(\.allRoutes), by: \.label)
        let labels = routeGroups.keys.sorted()

        out += "# HELP gatehouse_requests_total Requests answered, by route and status.\n"
        out += "# TYPE gatehouse_requests_total counter\n"
        for label in labels {
            let group = routeGroups[label]!
            for status in 100..<600 {
                let total = group.reduce(0) { $0 + $1.statuses.load(status) }
                if total > 0 {
                    out += "gatehouse_requests_total{route=\"\(escape(label))\",status=\"\(status)\"} \(total)\n"
                }
            }
        }

        out += "# HELP gatehouse_request_duration_seconds Time from request head to last response byte.\n"
        out += "# TYPE gatehouse_request_duration_seconds histogram\n"
        let bounds = RouteMetrics.bucketBounds
        for label in labels {
            let group = routeGroups[label]!
            var cumulative = 0
            for (index, bound) in bounds.enumerated() {
                cumulative += group.reduce(0) { $0 + $1.durations.load(index) }
                out += "gatehouse_request_duration_seconds_bucket{route=\"\(escape(label))\",le=\"\(bound)\"} \(cumulative)\n"
            }
            cumulative += group.reduce(0) { $0 + $1.durations.load(bounds.count) }
            let sumMicros = group.reduce(0) { $0 + $1.durations.load(bounds.count + 1) }
            let count = group.reduce(0) { $0 + $1.durations.load(bounds.count + 2) }
            out += "gatehouse_request_duration_seconds_bucket{route=\"\(escape(label))\",le=\"+Inf\"} \(cumulative)\n"
            out += "gatehouse_request_duration_seconds_sum{route=\"\(escape(label))\"} \(Double(sumMicros) / 1_000_000)\n"
            out += "gatehouse_request_duration_seconds_count{route=\"\(escape(label))\"} \(count)\n"
        }

        out += "# HELP gatehouse_upstream_requests_total Upstream exchanges, by upstream and outcome.\n"
        out += "# TYPE gatehouse_upstream_requests_total counter\n"
        let upstreamGroups = Dictionary(grouping: workers.flatMap(\.allUpstreams), by: \.name)
        for name in upstreamGroups.keys.sorted() {
            for outcome in UpstreamMetrics.Outcome.allCases {
                let total = upstreamGroups[name]!.reduce(0) { $0 + $1.outcomes.load(outcome.rawValue) }
                out += "gatehouse_upstream_requests_total{upstream=\"\(escape(name))\",outcome=\"\(outcome.label)\"} \(total)\n"
            }
        }

        out += "# HELP gatehouse_connections_active Open client connections.\n"
        out += "# TYPE gatehouse_connections_active gauge\n"
        out += "gatehouse_connections_active \(workers.reduce(0) { $0 + $1.connections.load(0) })\n"

        out += "# HELP gatehouse_websocket_tunnels_open Open WebSocket tunnels.\n"
        out += "# TYPE gatehouse_websocket_tunnels_open gauge\n"
        out += "gatehouse_websocket_tunnels_open \(workers.reduce(0) { $0 + $1.websocketTunnelsOpen.load(0) })\n"
        out += "# HELP gatehouse_websocket_closes_total WebSocket tunnels closed, by route and close code.\n"
        out += "# TYPE gatehouse_websocket_closes_total counter\n"
        let closes = workers.map(\.allWebSocketCloses).reduce(into: [WebSocketCloseSeries: Int]()) { total, next in
            total.merge(next, uniquingKeysWith: +)
        }
        for series in closes.keys.sorted(by: { ($0.route, $0.code) < ($1.route, $1.code) }) {
            out += "gatehouse_websocket_closes_total{route=\"\(escape(series.route))\",code=\"\(series.code)\"} \(closes[series]!)\n"
        }

        out += "# HELP gatehouse_auth_failures_total Refused credentials, by route and reason.\n"
        out += "# TYPE gatehouse_auth_failures_total counter\n"
        for label in labels {
            let group = routeGroups[label]!
            for reason in AuthFailureLabel.allCases {
                let index = AuthFailureLabel.allCases.firstIndex(of: reason)!
                let total = group.reduce(0) { $0 + $1.authFailures.load(index) }
                out += "gatehouse_auth_failures_total{route=\"\(escape(label))\",reason=\"\(reason.rawValue)\"} \(total)\n"
            }
        }

        out += "# HELP gatehouse_rate_limited_total Requests refused by a rate limit, by route and policy.\n"
        out += "# TYPE gatehouse_rate_limited_total counter\n"
        for series in rateLimits.all {
            out += "gatehouse_rate_limited_total{route=\"\(escape(series.route))\",policy=\"\(escape(series.policy))\"} "
                + "\(series.refusals.load(0))\n"
        }
        UpstreamStatusBoard.process.renderPrometheus(into: &out, escape: escape)
        out += renderStores(stores)
        out += CacheMetricsText.render(ResponseCache.process, escape: escape)
        return out
    }

    static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

