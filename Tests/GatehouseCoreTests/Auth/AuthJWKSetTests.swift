import Testing
@testable import GatehouseCore

@Suite("JWKSet")
struct AuthJWKSetTests {
    @Test func loadsRSAAndECKeys() throws {
        let set = try JWKSet(json: Array(AuthFixtures.jwks.utf8))
        #expect(set.keys.map(\.keyID) == ["rsa-1", nil, "ec-256", "ec-384", "rsa-1-any"])
        #expect(set.keys.map(\.type) == [.rsa(bits: 2048), .rsa(bits: 2048), .ec(.p256), .ec(.p384), .rsa(bits: 2048)])
        #expect(set.keys[0].algorithm == .RS256)
        #expect(set.skippedKeys.isEmpty)
    }

    @Test func skipsKeysThatAreNotForSignatures() throws {
        let set = try JWKSet(json: Array(AuthFixtures.jwksWithSkippedKeys.utf8))
        #expect(set.keys.map(\.keyID) == ["rsa-1"])
        #expect(set.skippedKeys == [
            #"keys[1] (kid "shared"): key type "oct" is not supported (RSA and EC are); skipped"#,
            #"keys[2] (kid "ed"): key type "OKP" is not supported (RSA and EC are); skipped"#,
            #"keys[3] (kid "rsa-enc"): use "enc" is not "sig"; skipped"#,
            #"keys[4] (kid "rsa-oaep"): alg "RSA-OAEP-256" is not a signature algorithm Gatehouse verifies; skipped"#,
            #"keys[5] (kid "ec-521"): curve "P-521" is not supported (P-256 and P-384 are); skipped"#,
        ])
    }

    static let p256X = "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU"
    static let p256Y = "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"

    @Test(arguments: [
        ("RSA under 2048 bits", AuthFixtures.jwksSmallRSAKey, #"keys[0] (kid "small"): RSA key of 1024 bits is too small (2048 minimum)"#),
        ("private RSA key", #"{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB","d":"AQAB"}]}"#,
         #"keys[0]: contains private key material ("d"); a JWK Set for verification holds public keys only"#),
        ("point off the curve", #"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(p256X)","y":"\#(p256X)"}]}"#,
         "keys[0]: the point is not on curve P-256"),
        ("short coordinate", #"{"keys":[{"kty":"EC","crv":"P-256","x":"AAAA","y":"\#(p256Y)"}]}"#,
         #"keys[0]: "x" and "y" must be base64url of 32 bytes each"#),
        ("P-256 point labelled P-384", #"{"keys":[{"kty":"EC","crv":"P-384","x":"\#(p256X)","y":"\#(p256Y)"}]}"#,
         #"keys[0]: "x" and "y" must be base64url of 48 bytes each"#),
        ("padded base64", #"{"keys":[{"kty":"RSA","n":"AQAB==","e":"AQAB"}]}"#, #"keys[0]: "n" missing or not base64url"#),
        ("missing e", #"{"keys":[{"kty":"RSA","kid":"k","n":"AQAB"}]}"#, #"keys[0] (kid "k"): "e" missing or not base64url"#),
        ("kty missing", #"{"keys":[{"kid":"k"}]}"#, #"keys[0] (kid "k"): "kty" missing or not a string"#),
        ("kid not a string", #"{"keys":[{"kty":"RSA","kid":1}]}"#, #"keys[0]: "kid" is not a string"#),
        ("alg for another key type", #"{"keys":[{"kty":"EC","crv":"P-256","alg":"RS256","x":"\#(p256X)","y":"\#(p256Y)"}]}"#,
         #"keys[0]: alg "RS256" does not fit a EC key of this kind"#),
        ("not an object", #"{"keys":["key"]}"#, "keys[0]: not a JSON object"),
    ])
    func refusesMalformedKey(name: String, json: String, problem: String) {
        do {
            _ = try JWKSet(json: Array(json.utf8))
            Issue.record("\(name): accepted")
        } catch {
            #expect(error.problems == [problem], "\(name)")
        }
    }

    @Test func readsFromFileWithinSizeLimit() throws {
        let path = try AuthTestSupport.temporaryFile(AuthFixtures.jwks)
        defer { AuthTestSupport.remove(path) }
        #expect(try JWKSet(contentsOfFile: path).keys.count == 5)

        let oversized = try AuthTestSupport.temporaryFile(String(repeating: " ", count: JWKSet.maxFileBytes + 1))
        defer { AuthTestSupport.remove(oversized) }
        #expect(throws: JWKSetError(["\"\(oversized)\" is larger than \(JWKSet.maxFileBytes) bytes"])) {
            try JWKSet(contentsOfFile: oversized)
        }
        #expect(throws: JWKSetError(["\"/tmp\" is not a regular file"])) { try JWKSet(contentsOfFile: "/tmp") }
    }

    @Test func acceptsTheRFC7515PublicKeys() throws {
        let set = try JWKSet(json: Array(AuthFixtures.rfc7515JWKS.utf8))
        #expect(set.keys.map(\.type) == [.rsa(bits: 2048), .ec(.p256)])
    }

    @Test(arguments: [
        (JWTAlgorithm.RS256, JWK.KeyType.rsa(bits: 2048), true),
        (.PS256, .rsa(bits: 2048), true),
        (.ES256, .rsa(bits: 2048), false),
        (.HS256, .rsa(bits: 2048), false),
        (.ES256, .ec(.p256), true),
        (.ES384, .ec(.p256), false),
        (.ES384, .ec(.p384), true),
        (.RS256, .ec(.p256), false),
        (.HS256, .ec(.p256), false),
    ])
    func keyFitsOnlyItsAlgorithms(algorithm: JWTAlgorithm, type: JWK.KeyType, fits: Bool) throws {
        let set = try JWKSet(json: Array(AuthFixtures.jwks.utf8))
        let key = try #require(set.keys.first { $0.type == type && $0.algorithm == nil })
        #expect(key.fits(algorithm) == fits)
    }
}
