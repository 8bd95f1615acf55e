import GatehouseConfig
import GatehouseGraphQL

/// Remote key sets of a snapshot: refreshing, metrics, status, and `check --online`.
extension GatewaySnapshot {
    /// Starts refreshing, on the key thread, every remote key set a route uses (a provider no
    /// route names is never fetched); a reload that keeps a provider as it was keeps its keys.
    /// Called by `Gateway` when it starts and on every reload.
    public func startKeyRefresh() {
        var used = Set<ObjectIdentifier>()
        for route in routes {
            for case .jwt(let jwt) in route.auth.providers {
                if let source = jwt.verifier.remoteKeys { used.insert(ObjectIdentifier(source)) }
            }
        }
        keySources.filter { used.contains(ObjectIdentifier($0)) }.forEach { $0.activate() }
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
