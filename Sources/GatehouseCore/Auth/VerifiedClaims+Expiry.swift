extension VerifiedClaims {
    /// Unix seconds after which the token no longer verifies: `exp` plus the provider's leeway
    /// (the same bound `JWTVerifier` checks); nil without a numeric `exp`.
    func expiry(leeway: Int64) -> Int64? {
        guard let exp = claims["exp"]?.doubleValue, exp.isFinite else { return nil }
        return Int64(exp.rounded(.down)) + leeway
    }
}
