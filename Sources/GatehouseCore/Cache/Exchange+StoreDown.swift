/// A cache store that cannot answer — marked down by its health, not connected, or failing
/// this lookup within its `timeout` — is bypassed: no read, no write, and the request goes to
/// the upstream with `Cache-Status: gatehouse; fwd=bypass; detail=store-down`. Nobody waits for
/// a store that is down.
extension Exchange {
    func cacheLookupUnavailable() {
        guard let lookup = cacheLookup.take(), let answer = lookup.pending else { return }
        answer.complete(bypassUnavailableStore(lookup))
    }

    func bypassUnavailableStore(_ lookup: borrowing CacheLookupState) -> PhaseResult {
        lookup.cache.count(.bypass)
        // Cache only: nothing can be served, as for a miss.
        if lookup.policy == .cacheOnly { return .respond(GatewayError(.cacheMiss, CachePhase.nothingCachedMessage)) }
        cacheStatusLine = CacheStatusLine(forward: .storeDown)
        return .next
    }
}
