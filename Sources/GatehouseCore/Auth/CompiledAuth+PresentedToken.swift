/// A token presented outside the request head: `payload.FIELD` of a WebSocket client's
/// `connection_init` (`token_from: connection_init:FIELD`). The route's providers judge it in
/// order exactly as a header token — the same verifiers, verified-token cache and key refetch
/// wait — and an API-key provider takes it as its key.
extension CompiledAuth {
    func authenticate(presentedToken token: [UInt8], now: Int64, mayWait: Bool,
                      caches: (JWTProvider) -> VerifiedTokenCache) -> AuthOutcome {
        var attempt = AuthAttempt(now: now, mayWait: mayWait)
        for provider in providers {
            switch provider {
            case .jwt(let jwt):
                let passed = token.withUnsafeBytes { attempt.verify($0, provider: jwt, cache: caches(jwt)) }
                if let passed { return passed }
            case .apiKey(let name, let authenticator, _):
                if token.withUnsafeBytes({ authenticator.verify($0) }) {
                    // The rate limits ran on the handshake, before the key came: no identity is kept.
                    return .passed(subject: "api_key:\(name)", headerBlock: [], identity: .anonymous)
                }
                attempt.apiKeyRefused = true
            }
        }
        return attempt.refusal
    }
}
