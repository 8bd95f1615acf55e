// Which keys may check a token, and the check itself.

extension JWKSet {
    // MARK: - Key selection

    /// The key that verifies `signature`. With a `kid`, only keys of exactly that `kid` (compared
    /// byte for byte, in memory) are candidates; without one, only keys without a `kid`. Of those,
    /// only keys that fit the algorithm are tried.
    /// - Returns: the key, or `unknownKey` (no candidate), `invalidKey` (a key with that `kid`
    ///   exists but cannot make this kind of signature) or `badSignature`.
    func verifyingKey(for algorithm: JWTAlgorithm, keyID: String?, signingInput: UnsafeRawBufferPointer,
                      signature: [UInt8]) -> Result<JWK, AuthFailure> {
        var sawCandidate = false
        var sawFittingKey = false
        for key in keys {
            switch (keyID, key.keyID) {
            case (nil, nil):
                break
            case (let wanted?, let candidate?) where wanted.utf8.elementsEqual(candidate.utf8):
                break
            default:
                continue
            }
            sawCandidate = true
            guard key.fits(algorithm) else { continue }
            sawFittingKey = true
            if JOSESignature.verify(algorithm, key: key.publicKey, signingInput: signingInput, signature: signature) {
                return .success(key)
            }
        }
        if !sawCandidate { return .failure(AuthFailure(.unknownKey)) }
        if !sawFittingKey {
            return .failure(keyID == nil ? AuthFailure(.unknownKey) : AuthFailure(.invalidKey))
        }
        return .failure(AuthFailure(.badSignature))
    }

    /// True when at least one key could verify `algorithm` (used to catch a set that cannot serve
    /// any configured algorithm at load time).
    func hasKey(fitting algorithm: JWTAlgorithm) -> Bool {
        keys.contains { $0.fits(algorithm) }
    }
}
