import GatehouseGraphQL

/// The claims of a token whose signature and time, issuer and audience checks all passed.
public struct VerifiedClaims: Sendable {
    /// `sub`, when the token has one.
    public let subject: String?
    public let claims: JSONObject
    public let algorithm: JWTAlgorithm
    /// The `kid` of the key that verified the token, when it had one.
    public let keyID: String?
    /// `exp` in whole Unix seconds (rounded down), when it is a finite number: read once here,
    /// since every request that reuses a cached verification needs it and parsing the lexeme
    /// again each time is measurable.
    public let expiresAt: Int64?

    public init(subject: String?, claims: JSONObject, algorithm: JWTAlgorithm, keyID: String?) {
        self.subject = subject
        self.claims = claims
        self.algorithm = algorithm
        self.keyID = keyID
        if let exp = claims["exp"]?.doubleValue, exp.isFinite, abs(exp) < Self.expiryBound {
            expiresAt = Int64(exp.rounded(.down))
        } else {
            expiresAt = nil
        }
    }

    /// Past this many seconds an `exp` cannot be held as an Int64 number of seconds; such a token
    /// never expires in practice, and is treated as having no usable expiry.
    private static let expiryBound = 9.0e18

    /// The claim `name` as header value bytes: strings as they are, numbers as their lexeme,
    /// booleans as `true`/`false`. Anything outside printable ASCII is refused, never cleaned up.
    public func headerValue(forClaim name: String) -> HeaderValueResult {
        guard let value = claims[name] else { return .absent }
        switch value {
        case .null:
            return .absent
        case .bool(let flag):
            return .value(Array((flag ? "true" : "false").utf8))
        case .number(let lexeme):
            return .value(Array(lexeme.utf8))
        case .string(let text):
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            for byte in text.utf8 {
                guard byte >= 0x20, byte <= 0x7E else { return .refused }
                bytes.append(byte)
            }
            return .value(bytes)
        case .array, .object:
            return .refused
        }
    }
}
