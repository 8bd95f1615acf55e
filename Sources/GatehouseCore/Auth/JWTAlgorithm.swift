import COpenSSL

/// The JWS algorithms the gateway verifies (RFC 7518). `none` is deliberately absent: an unsigned
/// token can never be named in `algorithms`, so it can never be accepted.
public enum JWTAlgorithm: String, Sendable, CaseIterable {
    case HS256, HS384, HS512
    case RS256, RS384, RS512
    case PS256
    case ES256, ES384

    /// How a signature is made, which decides the kind of key that may check it.
    public enum Family: Sendable, Equatable {
        /// HMAC with the provider's shared secret; never with a key from the JWK Set.
        case hmac
        /// RSASSA-PKCS1-v1_5 with an RSA public key.
        case rsaPKCS1
        /// RSASSA-PSS (MGF1 with the same hash, salt as long as the hash) with an RSA public key.
        case rsaPSS
        /// ECDSA on the given curve; the signature is JOSE r||s.
        case ecdsa(EllipticCurve)
    }

    public var family: Family {
        switch self {
        case .HS256, .HS384, .HS512: .hmac
        case .RS256, .RS384, .RS512: .rsaPKCS1
        case .PS256: .rsaPSS
        case .ES256: .ecdsa(.p256)
        case .ES384: .ecdsa(.p384)
        }
    }

    /// OpenSSL's digest for the algorithm (a static object owned by libcrypto, never freed).
    var digest: OpaquePointer {
        switch self {
        case .HS256, .RS256, .PS256, .ES256: EVP_sha256()
        case .HS384, .RS384, .ES384: EVP_sha384()
        case .HS512, .RS512: EVP_sha512()
        }
    }
}

/// The NIST curves JOSE uses for ES256/ES384.
public enum EllipticCurve: String, Sendable, Equatable {
    case p256 = "P-256"
    case p384 = "P-384"

    /// Bytes of one coordinate, and of r and s in a JOSE signature.
    public var coordinateSize: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        }
    }

    /// The group name OpenSSL knows the curve by.
    var openSSLGroupName: String {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        }
    }
}
