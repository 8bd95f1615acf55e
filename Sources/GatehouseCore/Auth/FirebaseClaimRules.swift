import GatehouseGraphQL

/// Firebase ID token rules on top of the registered claims (Firebase, "Verify ID tokens using a
/// third-party JWT library"): `sub` a non-empty string, `auth_time` a number in the past.
enum FirebaseClaimRules {
    static func check(_ claims: JSONObject, now: Double, leeway: Double) -> AuthFailure? {
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            return AuthFailure(.invalidClaim, detail: "sub must be a non-empty string")
        }
        guard let authTime = claims["auth_time"]?.doubleValue else {
            return AuthFailure(.invalidClaim, detail: "auth_time missing or not a number")
        }
        if authTime > now + leeway { return AuthFailure(.invalidClaim, detail: "auth_time is in the future") }
        return nil
    }
}
