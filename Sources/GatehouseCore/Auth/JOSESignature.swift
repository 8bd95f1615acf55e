import COpenSSL

/// Signature checks for JWS algorithms, all through libcrypto.
enum JOSESignature {
    // MARK: - HMAC

    /// Calls `body` with the HMAC of `data` under `key` (a stack buffer, valid only inside `body`).
    static func withHMAC<Result>(_ algorithm: JWTAlgorithm, key: UnsafeRawBufferPointer,
                                 data: UnsafeRawBufferPointer,
                                 _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(EVP_MAX_MD_SIZE)) { output in
            var length: UInt32 = 0
            let result = HMAC(algorithm.digest, key.baseAddress, Int32(key.count),
                              data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count,
                              output.baseAddress, &length)
            guard result != nil else {
                ERR_clear_error()
                return body(UnsafeRawBufferPointer(start: output.baseAddress, count: 0))
            }
            return body(UnsafeRawBufferPointer(start: output.baseAddress, count: Int(length)))
        }
    }

    static func hmac(_ algorithm: JWTAlgorithm, key: [UInt8], data: [UInt8]) -> [UInt8] {
        key.withUnsafeBytes { keyBytes in
            data.withUnsafeBytes { dataBytes in
                withHMAC(algorithm, key: keyBytes, data: dataBytes) { Array($0) }
            }
        }
    }

    /// Constant-time comparison of the expected MAC with the presented one (lengths are public).
    static func verifyHMAC(_ algorithm: JWTAlgorithm, secret: [UInt8], signingInput: UnsafeRawBufferPointer,
                           signature: [UInt8]) -> Bool {
        secret.withUnsafeBytes { secretBytes in
            withHMAC(algorithm, key: secretBytes, data: signingInput) { expected in
                guard !expected.isEmpty, expected.count == signature.count else { return false }
                return signature.withUnsafeBytes { presented in
                    CRYPTO_memcmp(expected.baseAddress, presented.baseAddress, expected.count) == 0
                }
            }
        }
    }

    // MARK: - Public-key signatures

    /// Verifies an RS*, PS* or ES* signature with `key`; the caller has checked that the key fits.
    static func verify(_ algorithm: JWTAlgorithm, key: OpenSSLPublicKey, signingInput: UnsafeRawBufferPointer,
                       signature: [UInt8]) -> Bool {
        let verified: Bool
        switch algorithm.family {
        case .hmac:
            return false
        case .ecdsa(let curve):
            guard let der = derSignature(fromJOSE: signature, curve: curve) else { return false }
            verified = digestVerify(algorithm, key: key, signingInput: signingInput, signature: der)
        case .rsaPKCS1, .rsaPSS:
            verified = digestVerify(algorithm, key: key, signingInput: signingInput, signature: signature)
        }
        // A failed verification leaves entries on the thread's OpenSSL error queue; TLS code on the
        // same event-loop thread reads that queue, so it is always left empty.
        if !verified { ERR_clear_error() }
        return verified
    }

    private static func digestVerify(_ algorithm: JWTAlgorithm, key: OpenSSLPublicKey,
                                     signingInput: UnsafeRawBufferPointer, signature: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer? = nil
        guard EVP_DigestVerifyInit(context, &keyContext, algorithm.digest, nil, key.pointer) == 1 else {
            return false
        }
        switch algorithm.family {
        case .rsaPKCS1:
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1 else { return false }
        case .rsaPSS:
            // RFC 7518 §3.5: MGF1 with the same hash, salt as long as the hash output.
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                  EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, RSA_PSS_SALTLEN_DIGEST) == 1,
                  EVP_PKEY_CTX_set_rsa_mgf1_md(keyContext, algorithm.digest) == 1 else { return false }
        case .ecdsa, .hmac:
            break
        }
        return signature.withUnsafeBytes { signatureBytes in
            EVP_DigestVerify(context, signatureBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                             signatureBytes.count,
                             signingInput.baseAddress?.assumingMemoryBound(to: UInt8.self),
                             signingInput.count) == 1
        }
    }

    // MARK: - ECDSA encoding

    /// JOSE ECDSA signatures are r||s, each exactly the curve's size (RFC 7518 §3.4); OpenSSL wants
    /// a DER ECDSA-Sig-Value. A wrong length or a zero r or s is refused here.
    static func derSignature(fromJOSE signature: [UInt8], curve: EllipticCurve) -> [UInt8]? {
        let half = curve.coordinateSize
        guard signature.count == 2 * half else { return nil }
        return signature.withUnsafeBufferPointer { bytes -> [UInt8]? in
            guard let base = bytes.baseAddress,
                  let r = BN_bin2bn(base, Int32(half), nil) else { return nil }
            guard let s = BN_bin2bn(base + half, Int32(half), nil) else {
                BN_free(r)
                return nil
            }
            guard BN_is_zero(r) == 0, BN_is_zero(s) == 0, let ecdsaSignature = ECDSA_SIG_new() else {
                BN_free(r)
                BN_free(s)
                return nil
            }
            defer { ECDSA_SIG_free(ecdsaSignature) }
            guard ECDSA_SIG_set0(ecdsaSignature, r, s) == 1 else {
                BN_free(r)
                BN_free(s)
                return nil
            }
            // From here r and s belong to ecdsaSignature.
            let length = i2d_ECDSA_SIG(ecdsaSignature, nil)
            guard length > 0 else { return nil }
            var der = [UInt8](repeating: 0, count: Int(length))
            let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var cursor = buffer.baseAddress
                return i2d_ECDSA_SIG(ecdsaSignature, &cursor)
            }
            return written == length ? der : nil
        }
    }
}
