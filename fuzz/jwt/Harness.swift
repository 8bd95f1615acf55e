// libFuzzer entry for JWT verification (README, "How a request is handled") with HS256/HS384 keys: no token may crash the
// verifier, and a token that passes must have been signed with HS256/HS384 (never `none`), be
// unexpired at the check time, and come from the configured issuer. The seed corpus holds one
// correctly signed token, so mutations of it explore the claim checks past the signature.
import GatehouseConfig
import GatehouseCore

private let verifier: JWTVerifier = {
    var config = JWTProviderConfig()
    config.algorithms = ["HS256", "HS384"]
    config.secret = "fuzzing-secret-0123456789abcdef-0123456789"
    config.issuer = "https://issuer.test/"
    config.audience = ["app"]
    config.claimsToHeaders = [HeaderSetting(name: "X-User-Id", value: "sub")]
    do {
        return try JWTVerifier(providerName: "fuzz", config: config)
    } catch {
        preconditionFailure("the fuzzing verifier config is invalid: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let token = UnsafeRawBufferPointer(start: data, count: size)
    let now: Int64 = 1_800_000_000
    if case .success(let verified) = verifier.verify(token: token, now: now) {
        precondition(verified.algorithm == .HS256 || verified.algorithm == .HS384,
                     "accepted with \(verified.algorithm)")
        precondition(verified.claims["exp"]?.int64Value.map { $0 > now } == true, "accepted an expired token")
        precondition(verified.claims["iss"]?.stringValue == "https://issuer.test/", "accepted another issuer")
    }
    return 0
}
