import GatehouseGraphQL

/// The parts of a JWS header the verifier acts on. `jku`, `x5u`, `jwk` and `x5c` are ignored on
/// purpose: keys come only from the configuration, never from the token.
struct JOSEHeader: Sendable {
    var algorithm: String
    var keyID: String?

    /// Parses the decoded header strictly: a JSON object without duplicate members (two `alg`s
    /// could be read differently by two parsers), with a string `alg`, an optional string `kid`,
    /// and no `crit` (no extension is understood, so none may be required).
    static func parse(_ bytes: [UInt8]) -> Result<JOSEHeader, AuthFailure> {
        guard let object = try? JSONReader.parse(bytes, maxDepth: 8, rejectDuplicateKeys: true).objectValue else {
            return .failure(AuthFailure(.malformed, detail: "header is not a JSON object"))
        }
        guard let algorithm = object["alg"]?.stringValue else {
            return .failure(AuthFailure(.malformed, detail: "header has no alg"))
        }
        guard object["crit"] == nil else {
            return .failure(AuthFailure(.malformed, detail: "crit header is not supported"))
        }
        var keyID: String? = nil
        if let kid = object["kid"] {
            guard let value = kid.stringValue else {
                return .failure(AuthFailure(.malformed, detail: "kid is not a string"))
            }
            keyID = value
        }
        return .success(JOSEHeader(algorithm: algorithm, keyID: keyID))
    }
}
