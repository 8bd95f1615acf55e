/// A JWK Set fetched over http(s): `jwks_url`, or `discovery: true` (the issuer's
/// `/.well-known/openid-configuration` names the `jwks_uri`), refreshed within `refresh`.
public struct RemoteKeysConfig: Sendable, Equatable {
    public enum Location: Sendable, Equatable {
        case url(KeyURL)
        /// The discovery document's URL, derived from the issuer.
        case discovery(KeyURL)
    }

    /// The path OpenID Connect Discovery 1.0 §4 puts under the issuer.
    public static let discoverySuffix = "/.well-known/openid-configuration"
    /// README, "Identity providers": refetch at most this often, even for unknown `kid`s.
    public static let defaultMinRefresh: Duration = .seconds(60)
    /// README: keys are refetched at least this often whatever the response's `Cache-Control` says.
    public static let defaultMaxRefresh: Duration = .seconds(24 * 3600)

    public var location: Location
    public var minRefresh: Duration = RemoteKeysConfig.defaultMinRefresh
    public var maxRefresh: Duration = RemoteKeysConfig.defaultMaxRefresh
    /// `tls.ca_file`: PEM file of trusted CAs for https key URLs; nil trusts the system store.
    public var caFile: String?
    /// With discovery: the configured issuer, which the discovery document must name as its own.
    public var issuer: String?

    public init(location: Location) {
        self.location = location
    }
}

/// An absolute http(s) URL for keys or discovery. Unlike an upstream URL it may carry a query.
public struct KeyURL: Sendable, Equatable, CustomStringConvertible {
    public var scheme: UpstreamURL.Scheme
    public var host: String
    public var port: Int
    /// Path and query, as sent in the request line.
    public var target: String

    public init(scheme: UpstreamURL.Scheme, host: String, port: Int, target: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.target = target
    }

    /// For logs, `/status` and config messages: the query shown as `?…`, since a key set's url
    /// may carry an access key there (the request line still sends it whole).
    public var description: String {
        let shownTarget = target.firstIndex(of: "?").map { "\(target[..<$0])?…" } ?? target
        return "\(scheme.rawValue)://\(authority)\(shownTarget)"
    }

    /// `Host` header value.
    public var authority: String {
        let defaultPort = scheme == .https ? 443 : 80
        let hostText = host.contains(":") ? "[\(host)]" : host
        return port == defaultPort ? hostText : "\(hostText):\(port)"
    }

    /// Parses an absolute URL; the query, if any, is kept as part of the target.
    public static func parse(_ text: String) -> Result<KeyURL, ValueProblem> {
        var base = text
        var query = ""
        if let mark = text.firstIndex(of: "?") {
            base = String(text[..<mark])
            query = String(text[mark...])
            if query.contains("#") { return .failure(ValueProblem("a fragment (#…) is not allowed in the url")) }
            if query.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) {
                return .failure(ValueProblem("the url's query has spaces or control characters"))
            }
        }
        switch UpstreamURLSyntax.parse(base) {
        case .success(let url):
            return .success(KeyURL(scheme: url.scheme, host: url.host, port: url.port, target: url.path + query))
        case .failure(let problem):
            return .failure(problem)
        }
    }
}

/// One `token_from` entry.
public enum TokenSource: Sendable, Equatable {
    /// `Authorization: Bearer <token>`.
    case header
    /// `cookie:NAME` — the cookie is forwarded unless the route removes the Cookie header.
    case cookie(String)
    /// `query:NAME` — the parameter is removed from the URL the upstream gets.
    case query(String)
}
