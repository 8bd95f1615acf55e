import GatehouseConfig
import GatehouseHTTP

/// A configured credential check, ready for the hot path.
enum AuthProvider: Sendable {
    case jwt(JWTProvider)
    case apiKey(name: String, authenticator: APIKeyAuthenticator, headerName: [UInt8])
}

/// What the authentication phase decided.
enum AuthOutcome {
    /// `headerBlock` holds the "Name: value\r\n" lines of `claims_to_headers`; `identity` is
    /// what limits keyed by `subject` or `api_key` count.
    /// `tokenQueryParameter` is a `query:NAME` token's parameter, left out of the forwarded URL.
    /// `validUntil`: the verified token's `exp` plus leeway (Unix seconds), for tunnels that
    /// close when it passes; nil for credentials that do not expire.
    case passed(subject: String?, headerBlock: [UInt8], identity: AuthenticatedIdentity,
                tokenQueryParameter: Range<Int>? = nil, validUntil: Int64? = nil)
    case refused(GatewayError, reason: AuthFailureCounter?)
    /// The token's `kid` is not in the provider's key set and a refetch is under way: the request
    /// may wait for it (within its deadline) and then be authenticated again.
    /// `refusal` and `reason` are the answer when no fetch may run.
    case awaitingKeys(RemoteKeySource, refusal: GatewayError, reason: AuthFailureCounter?)
}

/// Index of a failure reason in the per-route counters.
struct AuthFailureCounter {
    let index: Int

    init(_ label: AuthFailureLabel) { index = AuthFailureLabel.allCases.firstIndex(of: label)! }
}

/// A route's `auth`: none, or a list of providers of which any one suffices (README, "How a request is handled").
struct CompiledAuth: Sendable {
    let providers: [AuthProvider]

    static let none = CompiledAuth(providers: [])

    /// Headers the gateway sets from claims on this route (their client copies are dropped).
    var claimHeaders: [(name: String, claim: String)] {
        providers.flatMap { provider -> [(name: String, claim: String)] in
            if case .jwt(let jwt) = provider { return jwt.claimHeaders }
            return []
        }
    }

    /// `caches` gives each JWT provider its worker's verified-token cache.
    /// `mayWait`: an unknown `kid` may wait for the refetch it started (false on the second try).
    /// `queryToken`: where a WebSocket handshake's `query:NAME` token lies in the head, used when
    /// the provider's own token sources find nothing.
    func authenticate(_ head: RequestHead, now: Int64, mayWait: Bool = true,
                      caches: (JWTProvider) -> VerifiedTokenCache, queryToken: Range<Int>? = nil) -> AuthOutcome {
        if providers.isEmpty { return .passed(subject: nil, headerBlock: [], identity: .anonymous) }
        if head.authorization.isRepeated {
            return .refused(GatewayError(.badRequest, "The request has more than one Authorization header."), reason: nil)
        }
        var attempt = AuthAttempt(now: now, mayWait: mayWait)
        for provider in providers {
            switch provider {
            case .jwt(let jwt):
                let located: LocatedToken
                switch TokenLocator.find(in: head, sources: jwt.verifier.tokenSources) {
                case .absent:
                    guard let queryToken else { continue }
                    located = LocatedToken(token: queryToken, queryParameter: nil)
                case .malformed:
                    attempt.refuse(.malformed)
                    continue
                case .found(let token): located = token
                }
                let passed = head.bytes.withUnsafeBytes { raw in
                    attempt.verify(UnsafeRawBufferPointer(rebasing: raw[located.token]), provider: jwt,
                                   cache: caches(jwt),
                                   tokenQueryParameter: located.queryParameter,
                                   uncheckedBearer: located.isUncheckedBearer)
                }
                if let passed { return passed }
            case .apiKey(let name, let authenticator, let headerName):
                // Two keys are no key: whichever the gateway checked, the upstream might read the other.
                if Self.headerCount(head, named: headerName) > 1 {
                    attempt.apiKeyRefused = true
                    continue
                }
                guard let value = Self.headerValue(head, named: headerName) ?? queryToken else { continue }
                let accepted = head.bytes.withUnsafeBytes { authenticator.verify(UnsafeRawBufferPointer(rebasing: $0[value])) }
                if accepted {
                    return .passed(subject: "api_key:\(name)", headerBlock: [], identity: .apiKey(provider: name, value: value))
                }
                attempt.apiKeyRefused = true
            }
        }
        return attempt.refusal
    }

    private static func headerCount(_ head: RequestHead, named lowercase: [UInt8]) -> Int {
        head.bytes.withUnsafeBytes { raw in
            lowercase.withUnsafeBytes { wanted in
                head.headers.count { HeaderNames.asciiCaseInsensitiveEquals(UnsafeRawBufferPointer(rebasing: raw[$0.name]), wanted) }
            }
        }
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
                    providers[provider.name] = .jwt(JWTProvider(name: provider.name, verifier: verifier,
                                                                claimHeaders: jwt.claimsToHeaders.map { ($0.name, $0.value) }))
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

    /// Every remote key set, in file order.
    var keySources: [RemoteKeySource] {
        var seen = Set<ObjectIdentifier>()
        return providers.values.compactMap { provider -> RemoteKeySource? in
            guard case .jwt(let jwt) = provider, let source = jwt.verifier.remoteKeys else { return nil }
            return seen.insert(ObjectIdentifier(source)).inserted ? source : nil
        }.sorted { $0.providerName < $1.providerName }
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
