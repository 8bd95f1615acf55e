import GatehouseIO
import Glibc
import GatehouseConfig
import GatehouseCore

/// Reads, validates and compiles a configuration: every problem, with its key path.
enum ConfigLoading {
    static func load(path: String,
                     environment: [String: String] = FileSystem.environment) -> Result<GatewaySnapshot, ConfigErrors> {
        ConfigLoader.load(path: path, environment: environment).flatMap(GatewaySnapshot.compile)
    }
}

/// `gatehouse check`.
enum Check {
    /// `online`: also fetch every remote provider's discovery document and keys.
    static func run(configPath: String, online: Bool = false) -> Int32 {
        switch ConfigLoading.load(path: configPath) {
        case .success(let snapshot):
            if online {
                let problems = snapshot.checkKeySourcesOnline()
                if !problems.isEmpty {
                    for issue in problems { print(issue.description) }
                    return 1
                }
            }
            print("\(configPath): ok (\(snapshot.routes.count) routes, \(snapshot.upstreams.count) upstreams)")
            return 0
        case .failure(let errors):
            for issue in errors.issues { print(issue.description) }
            return 1
        }
    }
}
