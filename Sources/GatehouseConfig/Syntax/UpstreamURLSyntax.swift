/// `http://host[:port][/path]` and `https://…`. User info, query strings and fragments are
/// refused: credentials belong in `headers`, and the path is a default that routes extend.
/// Messages never repeat the URL, since a refused one may carry a password.
public enum UpstreamURLSyntax {
    public static func parse(_ text: String) -> Result<UpstreamURL, ValueProblem> {
        guard let schemeEnd = text.range(ofText: "://") else {
            return .failure(ValueProblem("expected an absolute http:// or https:// URL"))
        }
        guard let scheme = UpstreamURL.Scheme(rawValue: text[..<schemeEnd.lowerBound].lowercased()) else {
            return .failure(ValueProblem("the scheme must be http or https"))
        }
        let rest = text[schemeEnd.upperBound...]
        if rest.contains("#") { return .failure(ValueProblem("a fragment (#…) is not allowed in the url")) }
        if rest.contains("?") { return .failure(ValueProblem("a query string is not allowed in the url")) }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if authority.contains("@") {
            return .failure(ValueProblem("user info (user:password@) is not allowed in the url; send credentials with headers"))
        }
        let path = authorityEnd == rest.endIndex ? "/" : String(rest[authorityEnd...])
        if let problem = HTTPSyntax.upstreamPathProblem(path) {
            return .failure(ValueProblem("the url path \(problem.message)"))
        }
        let defaultPort = scheme == .https ? 443 : 80
        switch hostAndPort(authority, defaultPort: defaultPort) {
        case .success(let (host, port)):
            return .success(UpstreamURL(scheme: scheme, host: host, port: port, path: path))
        case .failure(let problem):
            return .failure(problem)
        }
    }

    // MARK: - Authority

    /// `host[:port]` or `[v6][:port]`; also used for `redis://` URLs.
    static func hostAndPort(_ authority: Substring, defaultPort: Int) -> Result<(String, Int), ValueProblem> {
        let host: String
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                return .failure(ValueProblem("unterminated [ in the url's host"))
            }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return .failure(ValueProblem("unexpected text after ] in the url")) }
                portText = after.dropFirst()
            }
            guard IPAddressSyntax.ipv6(host) != nil else {
                return .failure(ValueProblem("the url's bracketed host is not an IPv6 address"))
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = String(authority[..<colon])
                portText = authority[authority.index(after: colon)...]
            } else {
                host = String(authority)
            }
            guard !host.isEmpty else { return .failure(ValueProblem("the url has no host")) }
            guard IPAddressSyntax.ipv4(host) != nil || IPAddressSyntax.isHostName(host) else {
                return .failure(ValueProblem("the url's host \"\(host)\" is not a host name or IP address"))
            }
        }
        guard let portText else { return .success((host, defaultPort)) }
        switch PortSyntax.parse(portText, allowZero: false) {
        case .success(let port): return .success((host, port))
        case .failure(let problem): return .failure(ValueProblem("the url has an \(problem.message)"))
        }
    }
}
