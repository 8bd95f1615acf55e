import GatehouseGraphQL

// Registered claims (RFC 7519 §4.1): exp, nbf, iss, aud.

extension JWTVerifier {
    // MARK: - Claims

    /// The first claim that fails, or nil when the token may be used at `now`.
    func checkClaims(_ claims: JSONObject, now: Int64) -> AuthFailure? {
        let leeway = Double(leewaySeconds)
        let current = Double(now)

        guard let expiry = claims["exp"] else {
            return AuthFailure(.malformed, detail: "token has no exp claim")
        }
        guard let expirySeconds = expiry.doubleValue else {
            return AuthFailure(.malformed, detail: "exp is not a number")
        }
        if current > expirySeconds + leeway { return AuthFailure(.expired) }

        if let notBefore = claims["nbf"] {
            guard let notBeforeSeconds = notBefore.doubleValue else {
                return AuthFailure(.malformed, detail: "nbf is not a number")
            }
            if notBeforeSeconds > current + leeway { return AuthFailure(.notYetValid) }
        }

        if let issuer {
            guard let tokenIssuer = claims["iss"]?.stringValue, JWTVerifier.sameBytes(tokenIssuer, issuer) else {
                return AuthFailure(.wrongIssuer)
            }
        }

        if !audience.isEmpty, !audienceMatches(claims["aud"]) {
            return AuthFailure(.wrongAudience)
        }
        return firebaseRules ? FirebaseClaimRules.check(claims, now: current, leeway: leeway) : nil
    }

    /// `aud` is a string or an array of strings (RFC 7519 §4.1.3); one must be configured.
    private func audienceMatches(_ claim: JSONValue?) -> Bool {
        switch claim {
        case .string(let value)?:
            return audience.contains { JWTVerifier.sameBytes($0, value) }
        case .array(let values)?:
            return values.contains { element in
                guard let value = element.stringValue else { return false }
                return audience.contains { JWTVerifier.sameBytes($0, value) }
            }
        default:
            return false
        }
    }

    /// Exact comparison: Swift's `==` treats canonically equivalent Unicode as equal, which is not
    /// what "the issuer is exactly this string" means.
    static func sameBytes(_ left: String, _ right: String) -> Bool {
        left.utf8.elementsEqual(right.utf8)
    }
}
