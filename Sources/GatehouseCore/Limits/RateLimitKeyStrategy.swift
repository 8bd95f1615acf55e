import GatehouseConfig
import GatehouseHTTP

/// How a limit finds the key a request counts under: one case per `key:` of the config.
enum RateLimitKeyStrategy: Sendable {
    case ip
    case subject
    case apiKey
    /// The header name in lowercase ASCII.
    case header([UInt8])
    case route

    init(_ key: RateLimitConfig.Key) {
        switch key {
        case .ip: self = .ip
        case .subject: self = .subject
        case .apiKey: self = .apiKey
        case .header(let name): self = .header(Array(name.lowercased().utf8))
        case .route: self = .route
        }
    }

    /// What the strategies read from a request.
    struct Request {
        var head: RequestHead
        var peer: [UInt8]
        var trustedProxies: [CIDR]
        var identity: AuthenticatedIdentity
    }

    /// Key material longer than this (a header value or a subject can be kilobytes) is kept as
    /// its SHA-256, so the store's bound on entries is also a bound on its bytes.
    static let maximumPlainMaterial = 64
    /// Marks hashed material; plain material of the same bytes would need a SHA-256 preimage.
    static let hashedMaterialTag: UInt8 = 0xFF

    /// Appends the request's key to `key` (which holds the route and policy namespace); false
    /// when the limit does not apply to the request (a `subject` limit on a request that passed
    /// with an API key, an `api_key` limit on one that passed with a token).
    func appendKey(to key: inout [UInt8], for request: Request) -> Bool {
        let start = key.count
        guard appendMaterial(to: &key, for: request) else { return false }
        if key.count - start > Self.maximumPlainMaterial {
            let digest = key[start...].withUnsafeBytes { APIKeyAuthenticator.sha256($0) } ?? []
            key.removeSubrange(start...)
            key.append(Self.hashedMaterialTag)
            key.append(contentsOf: digest)
        }
        return true
    }

    private func appendMaterial(to key: inout [UInt8], for request: Request) -> Bool {
        switch self {
        case .ip:
            ForwardedClientAddress.append(to: &key, head: request.head, peer: request.peer,
                                          trustedProxies: request.trustedProxies)
        case .subject:
            guard case .token(let provider, let subject) = request.identity else { return false }
            key.append(contentsOf: provider.utf8)
            key.append(0)
            key.append(contentsOf: (subject ?? "").utf8)
        case .apiKey:
            guard case .apiKey(let provider, let value) = request.identity else { return false }
            // The key itself never enters the map: only its digest does.
            guard let digest = request.head.bytes.withUnsafeBytes({
                APIKeyAuthenticator.sha256(UnsafeRawBufferPointer(rebasing: $0[value]))
            }) else { return false }
            key.append(contentsOf: provider.utf8)
            key.append(0)
            key.append(contentsOf: digest)
        case .header(let name):
            // A missing header is its own key, the empty value.
            if let value = Self.firstValue(of: name, in: request.head) { key.append(contentsOf: request.head.bytes[value]) }
        case .route:
            break
        }
        return true
    }

    private static func firstValue(of lowercaseName: [UInt8], in head: RequestHead) -> Range<Int>? {
        head.bytes.withUnsafeBytes { raw in
            lowercaseName.withUnsafeBytes { wanted in
                head.headers.first { HeaderNames.asciiCaseInsensitiveEquals(UnsafeRawBufferPointer(rebasing: raw[$0.name]), wanted) }?.value
            }
        }
    }
}
