import GatehouseGraphQL

/// The claims of a token whose signature and time, issuer and audience checks all passed.
public struct VerifiedClaims: Sendable {
    /// `sub`, when the token has one.
    public let subject: String?
    public let claims: JSONObject
    public let algorithm: JWTAlgorithm
    /// The `kid` of the key that verified the token, when it had one.
    public let keyID: String?

    public init(subject: String?, claims: JSONObject, algorithm: JWTAlgorithm, keyID: String?) {
        self.subject = subject
        self.claims = claims
        self.algorithm = algorithm
        self.keyID = keyID
    }

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
