import COpenSSL

/// Builds OpenSSL public keys from JWK parameters (OpenSSL 3 `OSSL_PARAM_BLD` + `EVP_PKEY_fromdata`)
/// and lets OpenSSL check them (`EVP_PKEY_public_check`: an EC point on its curve, a sane RSA
/// modulus and exponent) before any signature is verified with them.
enum PublicKeyBuilder {
    // MARK: - Parameter names

    // OSSL_PARAM_BLD keeps the *pointer* to each parameter name until `to_param`, so the names
    // must outlive the builder: static C strings, not bridged Swift Strings (whose C copies die
    // when the call returns). Values are those of OSSL_PKEY_PARAM_RSA_N/_E/_GROUP_NAME/_PUB_KEY.
    private static let rsaModulusName: StaticString = "n"
    private static let rsaExponentName: StaticString = "e"
    private static let groupNameName: StaticString = "group"
    private static let publicKeyName: StaticString = "pub"
    // EVP_PKEY_CTX_new_from_name keeps the key type name's pointer in the context as well.
    private static let rsaTypeName: StaticString = "RSA"
    private static let ecTypeName: StaticString = "EC"

    private static func cString(_ name: StaticString) -> UnsafePointer<CChar> {
        // A StaticString's storage is a NUL-terminated literal in the binary.
        UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    // MARK: - RSA

    /// An RSA public key from the big-endian modulus and exponent, or nil when OpenSSL refuses it.
    static func rsa(modulus: [UInt8], exponent: [UInt8]) -> OpenSSLPublicKey? {
        guard !modulus.isEmpty, !exponent.isEmpty,
              let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        let n = BN_bin2bn(modulus, Int32(modulus.count), nil)
        let e = BN_bin2bn(exponent, Int32(exponent.count), nil)
        defer {
            BN_free(n)
            BN_free(e)
        }
        guard n != nil, e != nil,
              OSSL_PARAM_BLD_push_BN(builder, cString(rsaModulusName), n) == 1,
              OSSL_PARAM_BLD_push_BN(builder, cString(rsaExponentName), e) == 1 else {
            ERR_clear_error()
            return nil
        }
        // The builder copies the numbers in `to_param`, so they must live until then (they do).
        return makeKey(typeName: rsaTypeName, builder: builder)
    }

    // MARK: - EC

    /// An EC public key from its affine coordinates, each exactly `curve.coordinateSize` bytes.
    static func ec(curve: EllipticCurve, x: [UInt8], y: [UInt8]) -> OpenSSLPublicKey? {
        guard x.count == curve.coordinateSize, y.count == curve.coordinateSize,
              let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        // Uncompressed SEC1 point: 0x04 || x || y.
        let point: [UInt8] = [0x04] + x + y
        // The builder keeps pointers to the group name and point until `to_param` copies them, so
        // both buffers stay pinned across the whole build.
        return curve.openSSLGroupName.withCString { groupName in
            point.withUnsafeBytes { pointBytes in
                guard OSSL_PARAM_BLD_push_utf8_string(builder, cString(groupNameName), groupName, 0) == 1,
                      OSSL_PARAM_BLD_push_octet_string(builder, cString(publicKeyName),
                                                       pointBytes.baseAddress, pointBytes.count) == 1 else {
                    ERR_clear_error()
                    return nil
                }
                return makeKey(typeName: ecTypeName, builder: builder)
            }
        }
    }

    // MARK: - Common

    private static func makeKey(typeName: StaticString, builder: OpaquePointer) -> OpenSSLPublicKey? {
        defer { ERR_clear_error() }
        guard let params = OSSL_PARAM_BLD_to_param(builder) else { return nil }
        defer { OSSL_PARAM_free(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, cString(typeName), nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var pkey: OpaquePointer? = nil
        guard EVP_PKEY_fromdata_init(context) == 1,
              EVP_PKEY_fromdata(context, &pkey, gh_EVP_PKEY_PUBLIC_KEY(), params) == 1,
              let pkey else { return nil }
        let key = OpenSSLPublicKey(taking: pkey)
        guard let checkContext = EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(checkContext) }
        guard EVP_PKEY_public_check(checkContext) == 1 else { return nil }
        return key
    }
}
