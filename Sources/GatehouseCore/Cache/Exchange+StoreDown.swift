/// A cache store that cannot answer — marked down by its health, not connected, or failing
/// this lookup within its `timeout` — is bypassed: no read, no write, and the request goes to
/// the upstream with `Cache-Status: gatehouse; fwd=bypass; detail=store-down`. Nobody waits for
/// a store that is down.
extension Exchange {
    func cacheLookupUnavailable() {
        guard let answer = cacheLookup?.pending else { return }
        cacheLookup?.pending = nil
        answer.complete(bypassUnavailableStore())
    }

    func bypassUnavailableStore() -> PhaseResult {
        guard let lookup = cacheLookup.take() else { return .next }
        lookup.cache.count(.bypass)
        // Cache only: nothing can be served, as for a miss.
        if lookup.policy == .cacheOnly { return .respond(GatewayError(.cacheMiss, CachePhase.nothingCachedMessage)) }
        cacheStatusLine = CacheStatusLine(forward: .storeDown)
        return .next
    }
}
