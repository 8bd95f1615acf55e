/// One usable public key from a JWK Set (RFC 7517).
public struct JWK: Sendable {
    public enum KeyType: Sendable, Equatable {
        case rsa(bits: Int)
        case ec(EllipticCurve)
    }

    /// `kid`: matched as an exact string in memory, never used as a path or URL.
    public let keyID: String?
    /// `alg`, when the key is pinned to one algorithm.
    public let algorithm: JWTAlgorithm?
    public let type: KeyType
    let publicKey: OpenSSLPublicKey

    init(keyID: String?, algorithm: JWTAlgorithm?, type: KeyType, publicKey: OpenSSLPublicKey) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.type = type
        self.publicKey = publicKey
    }

    /// True when this key may check a signature made with `algorithm`: RSA keys for RS*/PS*, EC
    /// keys of the algorithm's own curve for ES*, never any key for HS*, and only the key's own
    /// `alg` when it names one.
    public func fits(_ algorithm: JWTAlgorithm) -> Bool {
        if let pinned = self.algorithm, pinned != algorithm { return false }
        switch (algorithm.family, type) {
        case (.rsaPKCS1, .rsa), (.rsaPSS, .rsa): return true
        case (.ecdsa(let wanted), .ec(let curve)): return wanted == curve
        default: return false
        }
    }
}
