extension VerifiedClaims {
    /// Unix seconds after which the token no longer verifies: `exp` plus the provider's leeway
    /// (the same bound `JWTVerifier` checks); nil without a numeric `exp`.
    func expiry(leeway: Int64) -> Int64? {
        expiresAt.map { $0 + leeway }
    }
}
