import GatehouseConfig
import GatehouseHTTP

/// A configured credential check, ready for the hot path.
enum AuthProvider: Sendable {
    case jwt(name: String, verifier: JWTVerifier, claimHeaders: [(name: String, claim: String)])
    case apiKey(name: String, authenticator: APIKeyAuthenticator, headerName: [UInt8])
}

/// What the authentication phase decided.
enum AuthOutcome {
    /// `headerBlock` holds the "Name: value\r\n" lines of `claims_to_headers`; `identity` is
    /// what limits keyed by `subject` or `api_key` count.
    /// `validUntil`: the verified token's `exp` plus leeway (Unix seconds), for tunnels that
    /// close when it passes; nil for credentials that do not expire.
    case passed(subject: String?, headerBlock: [UInt8], identity: AuthenticatedIdentity, validUntil: Int64? = nil)
    case refused(GatewayError, reason: AuthFailureCounter?)
}

/// Index of a failure reason in the per-route counters.
struct AuthFailureCounter {
    let index: Int

    init(_ label: AuthFailureLabel) { index = AuthFailureLabel.allCases.firstIndex(of: label)! }
}

/// A route's `auth`: none, or a list of providers of which any one suffices (SPEC §3.3).
struct CompiledAuth: Sendable {
    let providers: [AuthProvider]

    static let none = CompiledAuth(providers: [])

    /// Headers the gateway sets from claims on this route (their client copies are dropped).
    var claimHeaders: [(name: String, claim: String)] {
        providers.flatMap { provider -> [(name: String, claim: String)] in
            if case .jwt(_, _, let headers) = provider { return headers }
            return []
        }
    }

    /// `caches` gives each JWT provider its worker's verified-token cache. `queryToken`: where a
    /// WebSocket handshake's `query:NAME` token lies in the head, used when the request carries
    /// no Authorization (or API-key) header.
    func authenticate(_ head: RequestHead, now: Int64, caches: (JWTVerifier) -> VerifiedTokenCache,
                      queryToken: Range<Int>? = nil) -> AuthOutcome {
        if providers.isEmpty { return .passed(subject: nil, headerBlock: [], identity: .anonymous) }
        if head.headerCount(named: HeaderNames.authorization) > 1 {
            return .refused(GatewayError(.badRequest, "The request has more than one Authorization header."), reason: nil)
        }
        var firstRefusal: AuthFailureReason?
        var apiKeyRefused = false
        for provider in providers {
            switch provider {
            case .jwt(let name, let verifier, let claimHeaders):
                let authorization = head.headerValue(named: HeaderNames.authorization)
                guard let value = authorization ?? queryToken else { continue }
                let result: Result<VerifiedClaims, AuthFailure> = head.bytes.withUnsafeBytes { raw in
                    let field = UnsafeRawBufferPointer(rebasing: raw[value])
                    let bearer = authorization == nil ? 0..<field.count : BearerToken.extract(from: field)
                    guard let tokenRange = bearer, !tokenRange.isEmpty else {
                        return .failure(AuthFailure(.malformed))
                    }
                    let token = UnsafeRawBufferPointer(rebasing: field[tokenRange])
                    let cache = caches(verifier)
                    if let claims = cache.lookup(token, now: now) { return .success(claims) }
                    let result = verifier.verify(token: token, now: now)
                    if case .success(let claims) = result { cache.store(token, claims, now: now, leeway: verifier.leewaySeconds) }
                    return result
                }
                switch result {
                case .success(let claims):
                    switch Self.claimHeaderBlock(claims, claimHeaders) {
                    case .some(let block):
                        return .passed(subject: claims.subject, headerBlock: block,
                                       identity: .token(provider: name, subject: claims.subject),
                                       validUntil: claims.expiry(leeway: verifier.leewaySeconds))
                    case .none: firstRefusal = firstRefusal ?? .invalidClaim
                    }
                case .failure(let failure):
                    firstRefusal = firstRefusal ?? failure.reason
                }
            case .apiKey(let name, let authenticator, let headerName):
                guard let value = Self.headerValue(head, named: headerName) ?? queryToken else { continue }
                let accepted = head.bytes.withUnsafeBytes { authenticator.verify(UnsafeRawBufferPointer(rebasing: $0[value])) }
                if accepted {
                    return .passed(subject: "api_key:\(name)", headerBlock: [], identity: .apiKey(provider: name, value: value))
                }
                apiKeyRefused = true
            }
        }
        if let reason = firstRefusal {
            return .refused(GatewayError(.unauthenticated, "The credentials are not valid.",
                                         invalidTokenDescription: reason.description),
                            reason: AuthFailureCounter(AuthFailureLabel(rawValue: reason.rawValue) ?? .malformed))
        }
        if apiKeyRefused {
            return .refused(GatewayError(.unauthenticated, "The API key is not valid.",
                                         invalidTokenDescription: "invalid api key"),
                            reason: AuthFailureCounter(.invalid_api_key))
        }
        return .refused(GatewayError(.unauthenticated, "Authentication required"), reason: AuthFailureCounter(.missing))
    }

    /// The claim header lines, or nil when a claim cannot be a header value (the token is refused).
    private static func claimHeaderBlock(_ claims: VerifiedClaims, _ headers: [(name: String, claim: String)]) -> [UInt8]? {
        var block: [UInt8] = []
        for (name, claim) in headers {
            switch claims.headerValue(forClaim: claim) {
            case .value(let bytes):
                block.append(contentsOf: name.utf8)
                block.append(contentsOf: ": ".utf8)
                block.append(contentsOf: bytes)
                block.append(contentsOf: "\r\n".utf8)
            case .absent:
                continue
            case .refused:
                return nil
            }
        }
        return block
    }

    private static func headerValue(_ head: RequestHead, named lowercase: [UInt8]) -> Range<Int>? {
        head.bytes.withUnsafeBytes { raw in
            lowercase.withUnsafeBytes { wanted in
                for field in head.headers
                where HeaderNames.asciiCaseInsensitiveEquals(UnsafeRawBufferPointer(rebasing: raw[field.name]), wanted) {
                    return field.value
                }
                return nil
            }
        }
    }
}

/// Builds the providers once per configuration and each route's `CompiledAuth` from them.
struct AuthCompiler {
    private(set) var issues: [ConfigIssue] = []
    private var providers: [String: AuthProvider] = [:]

    init(config: GatewayConfig) {
        for provider in config.auth {
            switch provider.kind {
            case .jwt(let jwt):
                do {
                    let verifier = try JWTVerifier(providerName: provider.name, config: jwt)
                    providers[provider.name] = .jwt(name: provider.name, verifier: verifier,
                                                    claimHeaders: jwt.claimsToHeaders.map { ($0.name, $0.value) })
                } catch {
                    issues += error.issues
                }
            case .apiKey(let keys):
                providers[provider.name] = .apiKey(name: provider.name,
                                                   authenticator: APIKeyAuthenticator(providerName: provider.name, config: keys),
                                                   headerName: Array(keys.header.lowercased().utf8))
            }
        }
    }

    func compile(_ auth: RouteConfig.Auth, path: String) -> Result<CompiledAuth, ConfigIssue> {
        switch auth {
        case .none:
            return .success(.none)
        case .anyOf(let names):
            var list: [AuthProvider] = []
            for name in names {
                guard let provider = providers[name] else {
                    return .failure(ConfigIssue(path: path, message: "unknown auth provider \"\(name)\""))
                }
                list.append(provider)
            }
            return .success(CompiledAuth(providers: list))
        }
    }
}
