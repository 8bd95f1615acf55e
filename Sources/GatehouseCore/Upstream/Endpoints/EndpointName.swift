import GatehouseConfig
import GatehouseIO

/// A host and port that stands for one or more endpoints: an `endpoints` entry, or the url
/// itself when there is no list (then every address of its host is an endpoint).
struct EndpointName: Sendable, Equatable {
    let host: String
    let port: Int
    /// Where a name that does not resolve is reported.
    let keyPath: String

    static func names(of config: UpstreamConfig) -> [EndpointName] {
        let base = "upstreams.\(config.name)"
        guard !config.endpoints.isEmpty else {
            return [EndpointName(host: config.url.host, port: config.url.port, keyPath: "\(base).url")]
        }
        return config.endpoints.enumerated().map { index, url in
            EndpointName(host: url.host, port: url.port, keyPath: "\(base).endpoints[\(index)]")
        }
    }

    /// Every address of every name, without repeats, in list order.
    static func resolve(_ names: [EndpointName], with resolver: any HostResolver) -> [SocketAddress] {
        var addresses: [SocketAddress] = []
        var seen = Set<String>()
        for name in names {
            for address in resolver.resolve(host: name.host, port: name.port)
            where seen.insert(UpstreamEndpoint.label(for: address)).inserted {
                addresses.append(address)
            }
        }
        return addresses
    }
}
