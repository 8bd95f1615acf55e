import GatehouseHTTP

/// One authentication across a route's providers: each provider's try either passes or leaves
/// its reason here, and the first reason is the answer when none passes (README, "The two
/// doors"). Shared by tokens found in the request head and a token a WebSocket client presents
/// in its `connection_init`, so both are judged alike.
struct AuthAttempt {
    let now: Int64
    /// An unknown `kid` may wait for the refetch it starts (false on the second try).
    let mayWait: Bool
    private var firstRefusal: AuthFailureReason?
    var apiKeyRefused = false
    private var refetching: RemoteKeySource?

    init(now: Int64, mayWait: Bool) {
        self.now = now
        self.mayWait = mayWait
    }

    mutating func refuse(_ reason: AuthFailureReason) {
        firstRefusal = firstRefusal ?? reason
    }

    /// Verifies `token` with one JWT provider (the worker's verified-token cache first); the
    /// outcome when it passes, nil (the reason kept) when it does not. An `uncheckedBearer`
    /// token's characters are checked on a cache miss: the cache holds only tokens that passed.
    mutating func verify(_ token: UnsafeRawBufferPointer, provider: JWTProvider, cache: VerifiedTokenCache,
                         tokenQueryParameter: Range<Int>? = nil, uncheckedBearer: Bool = false) -> AuthOutcome? {
        let verifier = provider.verifier
        let generation = verifier.keyGeneration(now: now)
        let entry: VerifiedTokenCache.Entry
        if let hit = cache.lookup(token, now: now, generation: generation) {
            entry = hit
        } else if uncheckedBearer, !BearerToken.isWellFormed(token) {
            refuse(.malformed)
            return nil
        } else {
            switch verifier.verify(token: token, now: now) {
            case .success(let claims):
                // The claim header lines are made once per verification, not once per request.
                entry = cache.store(token, claims, headerBlock: Self.claimHeaderBlock(claims, provider.claimHeaders),
                                    now: now, leeway: verifier.leewaySeconds, generation: generation)
            case .failure(let failure):
                refuse(failure.reason)
                if mayWait, failure.reason == .unknownKey, let source = verifier.remoteKeys {
                    refetching = refetching ?? source
                }
                return nil
            }
        }
        guard let block = entry.headerBlock else {
            refuse(.invalidClaim)
            return nil
        }
        let subject = entry.claims.subject
        return .passed(subject: subject, headerBlock: block, identity: .token(provider: provider.name, subject: subject),
                       tokenQueryParameter: tokenQueryParameter, validUntil: entry.expiry)
    }

    /// The answer when no provider passed.
    var refusal: AuthOutcome {
        let refusal = Self.refusal(firstRefusal, apiKeyRefused: apiKeyRefused)
        if let refetching, case .refused(let error, let reason) = refusal {
            return .awaitingKeys(refetching, refusal: error, reason: reason)
        }
        return refusal
    }

    private static func refusal(_ firstRefusal: AuthFailureReason?, apiKeyRefused: Bool) -> AuthOutcome {
        if firstRefusal == .keysUnavailable {
            return .refused(GatewayError(.unavailable, "The identity provider's keys are not available yet; retry shortly.",
                                         retry: .safe), reason: nil)
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
    static func claimHeaderBlock(_ claims: VerifiedClaims, _ headers: [(name: String, claim: String)]) -> [UInt8]? {
        var block: [UInt8] = []
        for (name, claim) in headers {
            switch claims.headerValue(forClaim: claim) {
            case .value(let bytes):
                block.append(utf8: name)
                block.append(ascii: ": ")
                block.append(contentsOf: bytes)
                block.append(ascii: "\r\n")
            case .absent:
                continue
            case .refused:
                return nil
            }
        }
        return block
    }
}
