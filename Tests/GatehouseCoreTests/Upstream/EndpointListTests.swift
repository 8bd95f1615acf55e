import GatehouseConfig
import GatehouseIO
import Testing
@testable import GatehouseCore

/// Endpoint lists: diffing, resolution through an injectable resolver and a hosts file, and a
/// worker's group applying a changed list without a reload.
struct EndpointListTests {
    @Test(arguments: [
        (["a", "b", "c"], ["a", "b", "c"], EndpointListDiff(kept: ["a", "b", "c"], added: [], removed: [])),
        (["a", "b"], ["b", "c"], EndpointListDiff(kept: ["b"], added: ["c"], removed: ["a"])),
        ([], ["a"], EndpointListDiff(kept: [], added: ["a"], removed: [])),
        (["a", "b"], ["b", "a"], EndpointListDiff(kept: ["b", "a"], added: [], removed: [])),
    ])
    func diff(old: [String], new: [String], expected: EndpointListDiff) {
        #expect(EndpointListDiff(old: old, new: new) == expected)
        #expect(EndpointListDiff(old: old, new: new).isEmpty == (Set(old) == Set(new)))
    }

    @Test func everyAddressOfEveryNameOnce() {
        var config = UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "app.internal", port: 4000, path: "/"))
        let resolver = TableResolver(["app.internal": ["127.0.0.2", "127.0.0.3"], "b.internal": ["127.0.0.3"]])
        let byURL = EndpointName.resolve(EndpointName.names(of: config), with: resolver)
        #expect(byURL.map(UpstreamEndpoint.label(for:)) == ["127.0.0.2:4000", "127.0.0.3:4000"])
        config.endpoints = [UpstreamURL(scheme: .http, host: "b.internal", port: 4000, path: "/"),
                            UpstreamURL(scheme: .http, host: "app.internal", port: 4000, path: "/")]
        let byList = EndpointName.resolve(EndpointName.names(of: config), with: resolver)
        #expect(byList.map(UpstreamEndpoint.label(for:)) == ["127.0.0.3:4000", "127.0.0.2:4000"])
        #expect(EndpointName.names(of: config).map(\.keyPath) == ["upstreams.app.endpoints[0]", "upstreams.app.endpoints[1]"])
    }

    @Test func hostsFileLinesNameTheirAddresses() {
        let text = """
            # test hosts
            127.0.0.2   app.test other.test
            127.0.0.3   app.test   # second address
            ::1         v6.test
            """
        #expect(SystemHostResolver.addresses(of: "app.test", inHostsFile: text) == ["127.0.0.2", "127.0.0.3"])
        #expect(SystemHostResolver.addresses(of: "v6.test", inHostsFile: text) == ["::1"])
        #expect(SystemHostResolver.addresses(of: "second", inHostsFile: text).isEmpty)
    }

    @Test func aGroupKeepsPoolsOfKeptEndpointsAndDrainsRemovedOnes() throws {
        var config = GatewayConfig()
        config.upstreams = [UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4001, path: "/"))]
        config.routes = [RouteConfig(path: "/graphql", upstream: "app", auth: .none)]
        let snapshot = try GatewaySnapshot.compile(config).get()
        let board = UpstreamStatusBoard()
        let loop = EventLoop(name: "test")
        let group = UpstreamEndpointGroup(loop: loop, upstream: snapshot.upstreams[0], metrics: WorkerMetrics().upstream("app"),
                                          seed: 1, board: board)
        #expect(group.endpoints.map(\.label) == ["127.0.0.1:4001"])
        let first = group.pools[0]

        let resolver = TableResolver(["app.internal": ["127.0.0.1", "127.0.0.2"]])
        group.apply(addresses: resolver.resolve(host: "app.internal", port: 4001))
        #expect(group.endpoints.map(\.label) == ["127.0.0.1:4001", "127.0.0.2:4001"])
        #expect(group.pools[0] === first)
        #expect(board.endpoints(of: "app").map(\.label) == ["127.0.0.1:4001", "127.0.0.2:4001"])

        resolver.table["app.internal"] = ["127.0.0.2"]
        group.apply(addresses: resolver.resolve(host: "app.internal", port: 4001))
        #expect(group.endpoints.map(\.label) == ["127.0.0.2:4001"])
        #expect(first.isRetired)
        #expect(board.endpoints(of: "app").map(\.label) == ["127.0.0.2:4001"])
    }

    @Test func unavailableEverywhereMeansNoPool() throws {
        var config = GatewayConfig()
        config.upstreams = [UpstreamConfig(name: "app", url: UpstreamURL(scheme: .http, host: "127.0.0.1", port: 4001, path: "/"))]
        config.routes = [RouteConfig(path: "/graphql", upstream: "app", auth: .none)]
        let snapshot = try GatewaySnapshot.compile(config).get()
        let group = UpstreamEndpointGroup(loop: EventLoop(name: "test"), upstream: snapshot.upstreams[0],
                                          metrics: WorkerMetrics().upstream("app"), seed: 1, board: UpstreamStatusBoard())
        #expect(group.pick(now: 0) === group.pools[0])
        group.setHealthy("127.0.0.1:4001", false)
        #expect(group.pick(now: 0) == nil)
    }
}
