/// `auth.<name>:` — a credential check that routes name in their `auth`.
public struct AuthProviderConfig: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case jwt(JWTProviderConfig)
        case apiKey(APIKeyProviderConfig)
    }

    public var name: String
    public var kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }
}

/// `type: jwt`.
public struct JWTProviderConfig: Sendable, Equatable {
    /// Required; e.g. ["RS256", "ES256"]. `none` is never accepted.
    public var algorithms: [String] = []
    /// A JWK Set file with RSA/EC public keys (for RS*/PS*/ES*).
    public var jwksFile: String?
    /// A shared secret for HS256/384/512 (at least 32 bytes).
    public var secret: String?
    public var issuer: String?
    /// The token's `aud` must contain one of these; empty means `aud` is not checked.
    public var audience: [String] = []
    public var leeway: Duration = .seconds(0)
    /// Upstream header name -> claim name, in file order.
    public var claimsToHeaders: [HeaderSetting] = []

    public init() {}
}

/// `type: api_key`.
public struct APIKeyProviderConfig: Sendable, Equatable {
    public var header = "X-Api-Key"
    public var keys: [String] = []

    public init() {}
}

/// `operations:` — GraphQL operations held by the gateway.
public struct OperationsConfig: Sendable, Equatable {
    /// Every `*.graphql` file under it is loaded.
    public var dir: String

    public init(dir: String) { self.dir = dir }
}
