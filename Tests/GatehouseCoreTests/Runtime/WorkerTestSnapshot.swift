import GatehouseConfig
@testable import GatehouseCore

/// The configuration the worker suites run on: one route to an upstream nothing here reaches (a
/// request to an unknown path is answered by the worker itself, 404). Each suite names the
/// upstream after itself: the process-wide status board (`/status`) is keyed by names, and other
/// suites read theirs. Nil when the configuration is refused.
enum WorkerTestSnapshot {
    static func oneRoute(upstream name: String) -> GatewaySnapshot? {
        let yaml = """
        server: {listen: "127.0.0.1:1", admin_listen: ""}
        upstreams:
          \(name): {url: "http://127.0.0.1:1/graphql"}
        routes: [{path: /graphql, upstream: \(name), auth: none}]
        """
        guard case .success(let config) = ConfigLoader.load(yaml: yaml, environment: [:]),
              case .success(let snapshot) = GatewaySnapshot.compile(config) else { return nil }
        return snapshot
    }
}
