import Testing
@testable import GatehouseCore

@Suite("JWTVerifier signatures and attacks")
struct AuthJWTVerifierTests {
    typealias Support = AuthTestSupport
    static let now = AuthFixtures.now

    // MARK: - Valid tokens

    @Test(arguments: [
        ("RS256", AuthFixtures.rs256, "rsa-1"),
        ("RS384", AuthFixtures.rs384, "rsa-1-any"),
        ("RS512", AuthFixtures.rs512, "rsa-1-any"),
        ("PS256", AuthFixtures.ps256, "rsa-1-any"),
        ("ES256", AuthFixtures.es256, "ec-256"),
        ("ES384", AuthFixtures.es384, "ec-384"),
        ("RS256 without kid, kid-less key", AuthFixtures.rs256NoKid, nil),
        ("jku/x5u/jwk headers ignored", AuthFixtures.rs256EmbeddedKeyHeadersIgnored, "rsa-1"),
    ] as [(String, String, String?)])
    func acceptsSignedToken(name: String, token: String, keyID: String?) throws {
        try Support.withFixtureVerifier { verifier in
            let result = verifier.verify(token: token, now: Self.now)
            guard case .success(let claims) = result else {
                Issue.record("\(name): \(result)")
                return
            }
            #expect(claims.subject == "alice")
            #expect(claims.keyID == keyID)
            #expect(claims.algorithm.rawValue == String(name.prefix(5)) || name.contains(" "))
        }
    }

    @Test func acceptsRFC7515AppendixAVectors() throws {
        // A.2 (RS256) and A.3 (ES256); the keys have no kid, so kid-less selection is exercised too.
        try Support.withFixtureVerifier(algorithms: ["RS256", "ES256"], jwks: AuthFixtures.rfc7515JWKS,
                                        issuer: "joe", audience: []) { verifier in
            for token in [AuthFixtures.rfc7515A2, AuthFixtures.rfc7515A3] {
                let result = verifier.verify(token: token, now: AuthFixtures.rfc7515Exp - 10)
                #expect(result.isSuccess, "\(result)")
                guard case .success(let claims) = result else { continue }
                #expect(claims.claims["http://example.com/is_root"] == .bool(true))
            }
            #expect(verifier.verify(token: AuthFixtures.rfc7515A2, now: AuthFixtures.rfc7515Exp + 1).failureReason == .expired)
        }
    }

    @Test func hmacMatchesRFC7515AppendixA1() throws {
        let key = try #require(Base64URL.decode(AuthFixtures.rfc7515A1Key))
        let parts = AuthFixtures.rfc7515A1.split(separator: ".")
        let signingInput = Array((parts[0] + "." + parts[1]).utf8)
        let expected = try #require(Base64URL.decode(String(parts[2])))
        #expect(JOSESignature.hmac(.HS256, key: key, data: signingInput) == expected)
        let verified = signingInput.withUnsafeBytes {
            JOSESignature.verifyHMAC(.HS256, secret: key, signingInput: $0, signature: expected)
        }
        #expect(verified)
    }

    // MARK: - Attacks on the asymmetric provider

    static let validPayload = Support.payload()

    static let attacks: [(String, String, AuthFailureReason)] = [
        ("alg none", Support.forge(header: #"{"alg":"none","typ":"JWT"}"#, payload: validPayload), .unsupportedAlgorithm),
        ("alg None", Support.forge(header: #"{"alg":"None"}"#, payload: validPayload), .unsupportedAlgorithm),
        ("alg nOnE", Support.forge(header: #"{"alg":"nOnE"}"#, payload: validPayload), .unsupportedAlgorithm),
        ("alg lowercase rs256", Support.forge(header: #"{"alg":"rs256","kid":"rsa-1"}"#, payload: validPayload), .unsupportedAlgorithm),
        ("alg not configured (HS256 signed with the RSA public key PEM)", AuthFixtures.hs256SignedWithRSAPublicPEM, .unsupportedAlgorithm),
        ("RSA key named by an ES256 header", AuthFixtures.es256HeaderWithRSAKid, .invalidKey),
        ("RSA key pinned to RS256 used for RS384", AuthFixtures.rs384WithRS256OnlyKey, .invalidKey),
        ("ES384 header naming the P-256 key",
         Support.forge(header: #"{"alg":"ES384","kid":"ec-256"}"#, payload: validPayload, signature: Array(repeating: 1, count: 96)), .invalidKey),
        ("ECDSA r = s = 0",
         Support.forge(header: #"{"alg":"ES256","kid":"ec-256"}"#, payload: validPayload, signature: Array(repeating: 0, count: 64)), .badSignature),
        ("ECDSA r = 0",
         Support.forge(header: #"{"alg":"ES256","kid":"ec-256"}"#, payload: validPayload,
                       signature: Array(repeating: 0, count: 32) + Array(repeating: 7, count: 32)), .badSignature),
        ("ECDSA DER signature instead of r||s", AuthFixtures.es256DERSignature, .badSignature),
        ("ECDSA signature one byte short",
         Support.forge(header: #"{"alg":"ES256","kid":"ec-256"}"#, payload: validPayload, signature: Array(repeating: 9, count: 63)), .badSignature),
        ("kid ../../dev/null", AuthFixtures.rs256TraversalKid, .unknownKey),
        ("unknown kid", AuthFixtures.rs256UnknownKid, .unknownKey),
        ("no kid, signed by a key that has one", AuthFixtures.rs256NoKidSignedByKidKey, .badSignature),
        ("attacker key embedded in jwk/jku/x5u", AuthFixtures.rs256EmbeddedAttackerKey, .badSignature),
        ("empty signature", Support.forge(header: #"{"alg":"RS256","kid":"rsa-1"}"#, payload: validPayload), .badSignature),
        ("payload swapped under a valid signature", {
            let parts = AuthFixtures.rs256.split(separator: ".")
            return String(parts[0]) + "." + Support.base64URL(Support.payload(["sub": #""admin""#])) + "." + String(parts[2])
        }(), .badSignature),
        ("two segments", String(AuthFixtures.rs256.split(separator: ".").prefix(2).joined(separator: ".")), .malformed),
        ("four segments", AuthFixtures.rs256 + ".e30", .malformed),
        ("trailing dot", AuthFixtures.rs256 + ".", .malformed),
        ("padding on the header", {
            let parts = AuthFixtures.rs256.split(separator: ".")
            return String(parts[0]) + "=." + String(parts[1]) + "." + String(parts[2])
        }(), .malformed),
        ("padding on the signature", AuthFixtures.rs256 + "==", .malformed),
        ("base64 + and / instead of - and _",
         AuthFixtures.rs256.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "+/", .malformed),
        ("space inside", AuthFixtures.rs256.replacingOccurrences(of: ".", with: ". "), .malformed),
        ("64 KiB token", String(repeating: "a", count: 32 * 1024) + "." + String(repeating: "b", count: 32 * 1024) + ".c", .malformed),
        ("duplicate alg members", Support.forge(header: #"{"alg":"RS256","alg":"none","kid":"rsa-1"}"#, payload: validPayload), .malformed),
        ("crit header", Support.forge(header: #"{"alg":"RS256","kid":"rsa-1","crit":["exp"],"exp":1}"#, payload: validPayload), .malformed),
        ("kid not a string", Support.forge(header: #"{"alg":"RS256","kid":7}"#, payload: validPayload), .malformed),
        ("alg not a string", Support.forge(header: #"{"alg":["RS256"]}"#, payload: validPayload), .malformed),
        ("no alg", Support.forge(header: #"{"kid":"rsa-1"}"#, payload: validPayload), .malformed),
        ("header not JSON", Support.forge(header: "RS256", payload: validPayload), .malformed),
        ("header a JSON array", Support.forge(header: #"["RS256"]"#, payload: validPayload), .malformed),
        ("empty token", "", .missing),
    ]

    @Test(arguments: attacks.map(\.0))
    func refusesAttack(name: String) throws {
        let (_, token, reason) = try #require(Self.attacks.first { $0.0 == name })
        try Support.withFixtureVerifier { verifier in
            let result = verifier.verify(token: token, now: Self.now)
            #expect(result.failureReason == reason, "\(name): \(result)")
        }
    }

    @Test func sizeLimitIsEightKiB() throws {
        let verifier = try Support.hmacVerifier()
        // Pad header and payload JSON with whitespace until the token is exactly `length` bytes:
        // unpadded base64url of n bytes is ceil(4n/3) characters, any length but 4k+1.
        func token(length: Int) -> String? {
            let payload = Support.payload()
            let signatureLength = 43
            for headerPad in 0..<4 {
                let header = #"{"alg":"HS256"}"# + String(repeating: " ", count: headerPad)
                let payloadLength = length - Support.base64URL(header).utf8.count - 2 - signatureLength
                guard payloadLength % 4 != 1 else { continue }
                let payloadBytes = payloadLength * 3 / 4
                guard payloadBytes >= payload.utf8.count else { return nil }
                return Support.hs256(header: header,
                                     payload: payload + String(repeating: " ", count: payloadBytes - payload.utf8.count))
            }
            return nil
        }
        let atLimit = try #require(token(length: JWTVerifier.maxTokenBytes))
        #expect(atLimit.utf8.count == JWTVerifier.maxTokenBytes)
        #expect(verifier.verify(token: atLimit, now: Self.now).isSuccess)
        let overLimit = try #require(token(length: JWTVerifier.maxTokenBytes + 1))
        #expect(overLimit.utf8.count == JWTVerifier.maxTokenBytes + 1)
        guard case .failure(let failure) = verifier.verify(token: overLimit, now: Self.now) else {
            Issue.record("a token over 8 KiB was accepted")
            return
        }
        #expect(failure.reason == .malformed)
        #expect(failure.description == "token larger than 8 KiB")
    }

    @Test func hs256SignedWithThePublicKeyPEMFailsEvenWhenHS256IsAllowed() throws {
        // HS* is checked with the configured secret only, never with bytes of a JWK Set key.
        try Support.withFixtureVerifier(algorithms: ["RS256", "HS256"]) { verifier in
            #expect(verifier.verify(token: AuthFixtures.hs256SignedWithRSAPublicPEM, now: Self.now).failureReason == .badSignature)
            #expect(verifier.verify(token: AuthFixtures.rs256, now: Self.now).isSuccess)
        }
        // The PEM as the configured secret is the only way such a token passes.
        let pemSecretVerifier = try JWTVerifier(
            providerName: "pem", config: Support.config(algorithms: ["HS256"], secret: AuthFixtures.rsaPublicKeyPEM + "\n"))
        #expect(pemSecretVerifier.verify(token: AuthFixtures.hs256SignedWithRSAPublicPEM, now: Self.now).isSuccess)
    }

    @Test func hmacProviderRefusesAlgNoneAndWrongSecrets() throws {
        let verifier = try Support.hmacVerifier()
        let payload = Support.payload()
        #expect(verifier.verify(token: Support.hs256(payload: payload), now: Self.now).isSuccess)
        #expect(verifier.verify(token: Support.hs256(payload: payload, secret: Support.secret + "x"), now: Self.now).failureReason == .badSignature)
        #expect(verifier.verify(token: Support.forge(header: #"{"alg":"none"}"#, payload: payload), now: Self.now).failureReason == .unsupportedAlgorithm)
        #expect(verifier.verify(token: Support.hs256(header: #"{"alg":"HS384"}"#, payload: payload), now: Self.now).failureReason == .unsupportedAlgorithm)
        #expect(verifier.verify(token: AuthFixtures.rs256, now: Self.now).failureReason == .unsupportedAlgorithm)
        let duplicateAlg = Support.hs256(header: #"{"alg":"HS256","alg":"HS256"}"#, payload: payload)
        #expect(verifier.verify(token: duplicateAlg, now: Self.now).failureReason == .malformed)
    }

    // MARK: - Failure texts

    @Test(arguments: AuthFailureReason.allCases)
    func failureDescriptionIsShortAndQuotable(reason: AuthFailureReason) {
        let text = AuthFailure(reason).description
        #expect(!text.isEmpty && text.count < 64)
        #expect(!text.contains("\"") && !text.contains("\\"))
    }

    @Test func failureNeverEchoesTheToken() throws {
        try Support.withFixtureVerifier { verifier in
            for (_, token, _) in Self.attacks where !token.isEmpty {
                guard case .failure(let failure) = verifier.verify(token: token, now: Self.now) else { continue }
                #expect(!failure.description.contains(String(token.prefix(12))))
                #expect(!failure.description.contains("\""))
            }
        }
    }
}
