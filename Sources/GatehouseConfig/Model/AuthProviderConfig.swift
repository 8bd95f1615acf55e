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
    /// Where the JWK Set is fetched from (`jwks_url`, or `jwks_uri` found by `discovery`).
    public var remoteKeys: RemoteKeysConfig?
    /// Where the token is looked for, in order (`token_from`); the Authorization header by default.
    public var tokenSources: [TokenSource] = [.header]
    /// `type: firebase`: Firebase ID token rules on top (`sub` non-empty, `auth_time` in the past).
    public var firebaseRules = false

    public init() {}
}

/// The Firebase preset (`type: firebase`): Google's securetoken key set, issuer and audience
/// derived from `project_id`.
public enum FirebasePreset {
    public static let jwksURL = "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
    public static let algorithm = "RS256"

    public static func issuer(projectID: String) -> String { "https://securetoken.google.com/\(projectID)" }
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
