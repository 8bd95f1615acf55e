/// Why credentials were refused; the raw value is the `reason` label of
/// `gatehouse_auth_failures_total`.
public enum AuthFailureReason: String, Sendable, CaseIterable, CustomStringConvertible {
    case missing
    case malformed
    case unsupportedAlgorithm = "unsupported_algorithm"
    case badSignature = "bad_signature"
    case expired
    case notYetValid = "not_yet_valid"
    case wrongIssuer = "wrong_issuer"
    case wrongAudience = "wrong_audience"
    case invalidClaim = "invalid_claim"
    case unknownKey = "unknown_key"
    case invalidKey = "invalid_key"
    /// A remote key set has not been fetched yet: the gateway cannot judge (503, not 401).
    case keysUnavailable = "keys_unavailable"

    /// A short text for `WWW-Authenticate: … error_description="…"`. It is fixed per reason, so it
    /// never contains the token, and it holds no `"` or `\`, so it needs no escaping.
    public var description: String {
        switch self {
        case .missing: "credentials missing"
        case .malformed: "malformed token"
        case .unsupportedAlgorithm: "unsupported algorithm"
        case .badSignature: "bad signature"
        case .expired: "token expired"
        case .notYetValid: "token not yet valid"
        case .wrongIssuer: "wrong issuer"
        case .wrongAudience: "wrong audience"
        case .invalidClaim: "invalid claim"
        case .unknownKey: "unknown signing key"
        case .invalidKey: "signing key does not fit the algorithm"
        case .keysUnavailable: "signing keys not available yet"
        }
    }
}
