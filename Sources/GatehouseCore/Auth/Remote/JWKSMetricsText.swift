/// `gatehouse_jwks_refresh_total{provider,outcome}` and `gatehouse_jwks_key_age_seconds{provider}`
/// for `/metrics`, over the remote key sets that are refreshing.
public enum JWKSMetricsText {
    public static func render(now unixSeconds: Int64) -> String {
        render(KeyFetchService.shared.activeSources, now: unixSeconds)
    }

    static func render(_ all: [RemoteKeySource], now unixSeconds: Int64) -> String {
        // A provider whose settings changed on reload may briefly have two sources: the newest counts.
        var sources: [RemoteKeySource] = []
        for source in all.reversed() where !sources.contains(where: { $0.providerName == source.providerName }) {
            sources.append(source)
        }
        guard !sources.isEmpty else { return "" }
        sources.sort { $0.providerName < $1.providerName }
        var text = "# HELP gatehouse_jwks_refresh_total Remote key set fetches by outcome.\n"
        text += "# TYPE gatehouse_jwks_refresh_total counter\n"
        for source in sources {
            for outcome in JWKSMetrics.Outcome.allCases {
                text += "gatehouse_jwks_refresh_total{provider=\"\(source.providerName)\",outcome=\"\(outcome.label)\"} \(source.metrics.count(outcome))\n"
            }
        }
        text += "# HELP gatehouse_jwks_key_age_seconds Seconds since the key set in use was fetched.\n"
        text += "# TYPE gatehouse_jwks_key_age_seconds gauge\n"
        for source in sources {
            let fetchedAt = source.state.fetchedAt
            guard fetchedAt > 0 else { continue }
            text += "gatehouse_jwks_key_age_seconds{provider=\"\(source.providerName)\"} \(unixSeconds - fetchedAt)\n"
        }
        return text
    }
}
