import CLinux
import GatehouseGraphQL

// The verification of one token, in a fixed order: shape, header, algorithm, signature, claims.
// Nothing from the token is trusted, parsed further or copied before its signature is verified,
// except the header that says how to verify it.

extension JWTVerifier {
    // MARK: - Verify

    /// Verifies a JWS compact token at `now` (unix seconds).
    public func verify(token: UnsafeRawBufferPointer, now: Int64) -> Result<VerifiedClaims, AuthFailure> {
        guard !token.isEmpty else { return .failure(AuthFailure(.missing)) }
        guard token.count <= JWTVerifier.maxTokenBytes else {
            return .failure(AuthFailure(.malformed, detail: "token larger than 8 KiB"))
        }

        // Shape: exactly three base64url segments.
        guard let firstDot = token.firstIndex(of: UInt8(ascii: ".")),
              let secondDot = token[(firstDot + 1)...].firstIndex(of: UInt8(ascii: ".")),
              !token[(secondDot + 1)...].contains(UInt8(ascii: ".")) else {
            return .failure(AuthFailure(.malformed, detail: "token must have three segments"))
        }
        let signingInput = UnsafeRawBufferPointer(rebasing: token[..<secondDot])
        guard let headerBytes = Base64URL.decode(UnsafeRawBufferPointer(rebasing: token[..<firstDot])),
              let signature = Base64URL.decode(UnsafeRawBufferPointer(rebasing: token[(secondDot + 1)...])) else {
            return .failure(AuthFailure(.malformed, detail: "segment is not base64url"))
        }

        // Header.
        let header: JOSEHeader
        switch JOSEHeader.parse(headerBytes) {
        case .success(let parsed): header = parsed
        case .failure(let failure): return .failure(failure)
        }
        guard let algorithm = JWTAlgorithm(rawValue: header.algorithm), algorithms.contains(algorithm) else {
            return .failure(AuthFailure(.unsupportedAlgorithm))
        }

        // Signature: HS* only with the shared secret, everything else only with JWK Set keys.
        var keyID: String? = nil
        if algorithm.family == .hmac {
            guard let secret,
                  JOSESignature.verifyHMAC(algorithm, secret: secret, signingInput: signingInput, signature: signature) else {
                return .failure(AuthFailure(.badSignature))
            }
        } else {
            let keySet: JWKSet
            if let keyStore {
                keySet = keyStore.currentKeys(now: now)
            } else if let remoteKeys {
                guard let fetched = remoteKeys.keys else { return .failure(AuthFailure(.keysUnavailable)) }
                keySet = fetched
            } else {
                return .failure(AuthFailure(.unsupportedAlgorithm))
            }
            switch keySet.verifyingKey(for: algorithm, keyID: header.keyID, signingInput: signingInput,
                                       signature: signature) {
            case .success(let key): keyID = key.keyID
            case .failure(let failure):
                // A rotation the gateway has not seen yet: fetch early, at most once per refresh.min.
                if failure.reason == .unknownKey, let remoteKeys { remoteKeys.unknownKeySeen(now: gh_monotonic_ns()) }
                return .failure(failure)
            }
        }

        // Claims.
        guard let payloadBytes = Base64URL.decode(UnsafeRawBufferPointer(rebasing: token[(firstDot + 1)..<secondDot])) else {
            return .failure(AuthFailure(.malformed, detail: "segment is not base64url"))
        }
        guard let claims = try? JSONReader.parse(payloadBytes, maxDepth: 32, rejectDuplicateKeys: true).objectValue else {
            return .failure(AuthFailure(.malformed, detail: "payload is not a JSON object"))
        }
        if let failure = checkClaims(claims, now: now) { return .failure(failure) }
        let subject: String?
        switch claims["sub"] {
        case nil: subject = nil
        case .string(let value)?: subject = value
        default: return .failure(AuthFailure(.invalidClaim, detail: "sub is not a string"))
        }
        return .success(VerifiedClaims(subject: subject, claims: claims, algorithm: algorithm, keyID: keyID))
    }

    public func verify(token: [UInt8], now: Int64) -> Result<VerifiedClaims, AuthFailure> {
        token.withUnsafeBytes { verify(token: $0, now: now) }
    }

    public func verify(token: String, now: Int64) -> Result<VerifiedClaims, AuthFailure> {
        verify(token: Array(token.utf8), now: now)
    }
}
