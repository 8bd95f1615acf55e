import GatehouseGraphQL

/// The public keys of a JWK Set file (RFC 7517 §5), immutable once loaded.
///
/// Keys that are malformed (bad base64url, a point off its curve, an RSA modulus under 2048 bits,
/// private key material) make the whole set refused, so a broken file is noticed at load time.
/// Keys that are simply not for this gateway (another `kty` or curve, `use` other than `sig`, an
/// `alg` that is not a JWS algorithm here) are skipped and listed in `skippedKeys`.
public final class JWKSet: Sendable {
    /// Larger files are refused; real sets are a few KiB.
    public static let maxFileBytes = 1 << 20
    public static let minimumRSABits = 2048

    public let keys: [JWK]
    /// One line per skipped key, e.g. `keys[3] (kid "enc-1"): use "enc" is not "sig"; skipped`.
    public let skippedKeys: [String]

    public init(keys: [JWK], skippedKeys: [String] = []) {
        self.keys = keys
        self.skippedKeys = skippedKeys
    }

    // MARK: - Loading

    public convenience init(json: [UInt8]) throws(JWKSetError) {
        let document: JSONValue
        do {
            document = try JSONReader.parse(json, maxDepth: 16)
        } catch {
            throw JWKSetError(["not valid JSON: \(error)"])
        }
        guard let keyList = document["keys"]?.arrayValue else {
            throw JWKSetError(["expected a JWK Set: an object with a \"keys\" array"])
        }
        var keys: [JWK] = []
        var skipped: [String] = []
        var problems: [String] = []
        for (index, element) in keyList.enumerated() {
            switch JWKSet.readKey(element) {
            case .usable(let key): keys.append(key)
            case .skipped(let why): skipped.append("\(JWKSet.label(index, element)): \(why); skipped")
            case .problem(let why): problems.append("\(JWKSet.label(index, element)): \(why)")
            }
        }
        guard problems.isEmpty else { throw JWKSetError(problems) }
        self.init(keys: keys, skippedKeys: skipped)
    }

    public convenience init(contentsOfFile path: String) throws(JWKSetError) {
        let bytes: [UInt8]
        switch KeyFile.read(path: path, maxBytes: JWKSet.maxFileBytes) {
        case .success(let contents): bytes = contents
        case .failure(let failure): throw JWKSetError([failure.message])
        }
        try self.init(json: bytes)
    }

    private static func label(_ index: Int, _ element: JSONValue) -> String {
        if let kid = element["kid"]?.stringValue { return "keys[\(index)] (kid \"\(kid)\")" }
        return "keys[\(index)]"
    }

    // MARK: - One key

    private enum KeyReading {
        case usable(JWK)
        case skipped(String)
        case problem(String)
    }

    private static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    private static func readKey(_ element: JSONValue) -> KeyReading {
        guard let object = element.objectValue else { return .problem("not a JSON object") }
        guard let keyType = object["kty"]?.stringValue else { return .problem("\"kty\" missing or not a string") }
        if let kidValue = object["kid"], kidValue.stringValue == nil { return .problem("\"kid\" is not a string") }
        if let useValue = object["use"] {
            guard let use = useValue.stringValue else { return .problem("\"use\" is not a string") }
            if use != "sig" { return .skipped("use \"\(use)\" is not \"sig\"") }
        }
        var algorithm: JWTAlgorithm? = nil
        if let algValue = object["alg"] {
            guard let alg = algValue.stringValue else { return .problem("\"alg\" is not a string") }
            guard let known = JWTAlgorithm(rawValue: alg), known.family != .hmac else {
                return .skipped("alg \"\(alg)\" is not a signature algorithm Gatehouse verifies")
            }
            algorithm = known
        }
        guard keyType == "RSA" || keyType == "EC" else {
            return .skipped("key type \"\(keyType)\" is not supported (RSA and EC are)")
        }
        if let member = privateMembers.first(where: { object[$0] != nil }) {
            return .problem("contains private key material (\"\(member)\"); a JWK Set for verification holds public keys only")
        }
        let keyID = object["kid"]?.stringValue
        let reading = keyType == "RSA"
            ? readRSA(object, keyID: keyID, algorithm: algorithm)
            : readEC(object, keyID: keyID, algorithm: algorithm)
        if case .usable(let key) = reading, let algorithm, !key.fits(algorithm) {
            return .problem("alg \"\(algorithm.rawValue)\" does not fit a \(keyType) key of this kind")
        }
        return reading
    }

    private static func readRSA(_ object: JSONObject, keyID: String?, algorithm: JWTAlgorithm?) -> KeyReading {
        guard let modulus = object["n"]?.stringValue.flatMap(Base64URL.decode), !modulus.isEmpty else {
            return .problem("\"n\" missing or not base64url")
        }
        guard let exponent = object["e"]?.stringValue.flatMap(Base64URL.decode), !exponent.isEmpty else {
            return .problem("\"e\" missing or not base64url")
        }
        guard let publicKey = PublicKeyBuilder.rsa(modulus: modulus, exponent: exponent) else {
            return .problem("OpenSSL refused the RSA key")
        }
        guard publicKey.bits >= minimumRSABits else {
            return .problem("RSA key of \(publicKey.bits) bits is too small (\(minimumRSABits) minimum)")
        }
        return .usable(JWK(keyID: keyID, algorithm: algorithm, type: .rsa(bits: publicKey.bits), publicKey: publicKey))
    }

    private static func readEC(_ object: JSONObject, keyID: String?, algorithm: JWTAlgorithm?) -> KeyReading {
        guard let curveName = object["crv"]?.stringValue else {
            return .problem("\"crv\" missing or not a string")
        }
        guard let curve = EllipticCurve(rawValue: curveName) else {
            return .skipped("curve \"\(curveName)\" is not supported (P-256 and P-384 are)")
        }
        guard let x = object["x"]?.stringValue.flatMap(Base64URL.decode), x.count == curve.coordinateSize,
              let y = object["y"]?.stringValue.flatMap(Base64URL.decode), y.count == curve.coordinateSize else {
            return .problem("\"x\" and \"y\" must be base64url of \(curve.coordinateSize) bytes each")
        }
        guard let publicKey = PublicKeyBuilder.ec(curve: curve, x: x, y: y) else {
            return .problem("the point is not on curve \(curve.rawValue)")
        }
        return .usable(JWK(keyID: keyID, algorithm: algorithm, type: .ec(curve), publicKey: publicKey))
    }
}
