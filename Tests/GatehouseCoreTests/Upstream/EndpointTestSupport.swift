import GatehouseIO
@testable import GatehouseCore

/// Endpoints on loopback ports, and a resolver whose answers the test sets.
enum EndpointTestSupport {
    static func endpoints(_ count: Int, firstPort: Int = 4001) -> [UpstreamEndpoint] {
        (0..<count).map { UpstreamEndpoint(address: SocketAddress(host: "127.0.0.1", port: firstPort + $0)!) }
    }

    static let second: UInt64 = 1_000_000_000
}

/// A resolver answering from a table (host → addresses) the test changes between calls.
final class TableResolver: HostResolver, @unchecked Sendable {
    var table: [String: [String]]

    init(_ table: [String: [String]]) { self.table = table }

    func resolve(host: String, port: Int) -> [SocketAddress] {
        (table[host] ?? []).compactMap { SocketAddress(host: $0, port: port) }
    }
}
