import GatehouseGraphQL

/// The realtime part of the admin status: open WebSocket tunnels and their closes by route and
/// code, summed over the workers (the same figures as the Prometheus series).
public enum RealtimeStatus {
    public static func json(_ workers: [WorkerMetrics]) -> JSONValue {
        let open = workers.reduce(0) { $0 + $1.websocketTunnelsOpen.load(0) }
        var closes: [WebSocketCloseSeries: Int] = [:]
        for worker in workers { closes.merge(worker.allWebSocketCloses, uniquingKeysWith: +) }
        let series = closes.keys.sorted { ($0.route, $0.code) < ($1.route, $1.code) }.map { key -> JSONValue in
            .object(JSONObject([("route", .string(key.route)), ("code", .number(String(key.code))),
                                ("count", .number(String(closes[key]!)))]))
        }
        return .object(JSONObject([("websocket_tunnels_open", .number(String(open))), ("websocket_closes", .array(series))]))
    }
}
