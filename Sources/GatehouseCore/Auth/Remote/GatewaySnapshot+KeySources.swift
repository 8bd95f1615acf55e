import GatehouseConfig
import GatehouseGraphQL

/// Remote key sets of a snapshot: refreshing, metrics, status, and `check --online`.
extension GatewaySnapshot {
    /// Starts refreshing every remote key set on the key thread (kept when a reload keeps the
    /// provider as it was). Called by `Gateway` when it starts and on every reload.
    public func startKeyRefresh() {
        keySources.forEach { $0.activate() }
    }

    /// For `/status`: one entry per remote key set (provider, key count, last refresh, last error).
    public func keySourcesStatusJSON(now unixSeconds: Int64) -> JSONValue {
        .array(keySources.map { $0.statusJSON(now: unixSeconds) })
    }

    /// `gatehouse check --online`: fetches discovery and keys of every remote provider now, on
    /// a private loop on this thread; returns one problem per provider that failed, at its key path.
    public func checkKeySourcesOnline() -> [ConfigIssue] {
        keySources.compactMap { source in
            OnlineKeyCheck.run(source).map { ConfigIssue(path: "auth.\(source.providerName)", message: $0) }
        }
    }
}
