import GatehouseIO

/// What the resolver and health-check thread posts to each worker's mailbox.
extension Worker {
    /// A newer address list for the upstream compiled under `poolKey` (ignored when a reload
    /// replaced it meanwhile).
    func applyEndpoints(poolKey: String, _ addresses: [SocketAddress]) {
        for group in endpointGroups where group.upstream.poolKey == poolKey { group.apply(addresses: addresses) }
    }

    func applyHealth(poolKey: String, endpoint: String, healthy: Bool) {
        for group in endpointGroups where group.upstream.poolKey == poolKey { group.setHealthy(endpoint, healthy) }
    }
}
