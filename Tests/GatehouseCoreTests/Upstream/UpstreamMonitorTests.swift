import GatehouseConfig
import GatehouseIO
import Synchronization
import Testing
@testable import GatehouseCore

/// The resolver side of the monitor on a manual clock: a changed answer is published once, when
/// its interval is due; an empty answer keeps the last list.
struct UpstreamMonitorTests {
    final class Published: Sendable {
        let lists = Mutex<[[String]]>([])
    }

    @Test func publishesChangedListsWhenDue() throws {
        var upstream = UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4001, path: "/"))
        upstream.resolveInterval = .seconds(1)
        var config = GatewayConfig()
        config.upstreams = [upstream]
        config.routes = [RouteConfig(path: "/graphql", upstream: "app", auth: .none)]
        let snapshot = try GatewaySnapshot.compile(config).get()
        let resolver = TableResolver(["127.0.0.1": ["127.0.0.1"]])
        let published = Published()
        let sink = UpstreamMonitorSink(
            endpointsChanged: { _, addresses in
                published.lists.withLock { $0.append(addresses.map(UpstreamEndpoint.label(for:))) }
            },
            healthChanged: { _, _, _ in })
        let monitor = UpstreamMonitor(sink: sink, snapshot: snapshot, resolver: resolver, board: UpstreamStatusBoard())
        let second = EndpointTestSupport.second

        #expect(monitor.runOnce(now: 0) == second)  // same answer as at load: nothing published
        resolver.table["127.0.0.1"] = ["127.0.0.2", "127.0.0.3"]
        _ = monitor.runOnce(now: second / 2)         // not due yet
        #expect(published.lists.withLock { $0 }.isEmpty)
        _ = monitor.runOnce(now: second)
        #expect(published.lists.withLock { $0 } == [["127.0.0.2:4001", "127.0.0.3:4001"]])
        resolver.table["127.0.0.1"] = []              // a DNS outage keeps the last list
        _ = monitor.runOnce(now: 2 * second)
        _ = monitor.runOnce(now: 3 * second)         // unchanged: published once
        #expect(published.lists.withLock { $0 }.count == 1)
    }
}
