// The client and where it connects.

extension RuntimeFile {
    static let connector = RuntimeFile(name: "Connector.swift", contents: #"""
    import Foundation

    /// Where the gateway is: one base URL for both doors; each operation adds its own path.
    public struct Connector: Sendable, Hashable {
        public var baseURL: URL

        public init(baseURL: URL) {
            self.baseURL = baseURL
        }

        /// The gateway on this machine, as `gatehouse demo` runs it (port 8080 unless told otherwise).
        public static func local(port: Int = 8080) -> Connector {
            var components = URLComponents()
            components.scheme = "http"
            components.host = "127.0.0.1"
            components.port = port
            return Connector(baseURL: components.url ?? URL(fileURLWithPath: "/"))
        }

        /// `baseURL` + `path` + `?query`.
        func url(path: String, query: String) -> URL? {
            var base = baseURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            return URL(string: base + path + (query.isEmpty ? "" : "?" + query))
        }
    }
    """#)

    static let fetchPolicy = RuntimeFile(name: "FetchPolicy.swift", contents: #"""
    /// Whether a query may be answered from the gateway's response cache, sent as `Cache-Control`.
    public enum FetchPolicy: Sendable, Hashable {
        /// A fresh cached answer is served; otherwise the backend answers (no `Cache-Control`).
        case preferCache
        /// Only a cached answer; a miss fails with `GatehouseError` code `CACHE_MISS` (504).
        case cacheOnly
        /// Always the backend, which also refreshes the cached answer (`Cache-Control: no-cache`).
        case serverOnly

        var cacheControl: String? {
            switch self {
            case .preferCache: nil
            case .cacheOnly: "only-if-cached"
            case .serverOnly: "no-cache"
            }
        }
    }
    """#)

    static let client = RuntimeFile(name: "GatehouseClient.swift", contents: #"""
    import Foundation
    #if canImport(FoundationNetworking)
    import FoundationNetworking
    #endif

    /// Supplies the bearer token for the authenticated door; nil sends none (the gateway then
    /// answers `UNAUTHENTICATED`, `GatehouseError.isUnauthenticated`).
    public typealias TokenProvider = @Sendable () async throws -> String?

    /// One client for both doors of the gateway: operations the gateway serves on an `auth: none`
    /// route go through the public door without a token, the others through the authenticated
    /// door with the token provider's token. Each operation is one `async throws` method.
    public struct GatehouseClient: Sendable {
        public let connector: Connector
        let session: URLSession
        let tokenProvider: TokenProvider

        public init(connector: Connector = .local(), session: URLSession = .shared,
                    tokenProvider: @escaping TokenProvider = { nil }) {
            self.connector = connector
            self.session = session
            self.tokenProvider = tokenProvider
        }
    }

    /// The door an operation goes through.
    enum GatewayDoor: Sendable {
        case `public`
        case authenticated
    }
    """#)
}
