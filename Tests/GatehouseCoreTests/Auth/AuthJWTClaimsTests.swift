import Testing
@testable import GatehouseCore

@Suite("JWTVerifier claims")
struct AuthJWTClaimsTests {
    typealias Support = AuthTestSupport
    static let now = AuthFixtures.now

    // MARK: - exp, nbf, iss, aud (leeway 30 s, issuer and audience configured)

    static let cases: [(String, [String: String?], AuthFailureReason?)] = [
        ("valid", [:], nil),
        ("expired by leeway + 1", ["exp": "\(now - 31)"], .expired),
        ("expired by leeway - 1", ["exp": "\(now - 29)"], nil),
        ("expired by exactly the leeway", ["exp": "\(now - 30)"], nil),
        ("exp as a decimal", ["exp": "\(now).5"], nil),
        ("exp far in the future", ["exp": "1e300"], nil),
        ("missing exp", ["exp": nil], .malformed),
        ("exp as a string", ["exp": "\"\(now + 600)\""], .malformed),
        ("exp as null", ["exp": "null"], .malformed),
        ("exp as a boolean", ["exp": "true"], .malformed),
        ("nbf in the future beyond leeway", ["nbf": "\(now + 31)"], .notYetValid),
        ("nbf in the future within leeway", ["nbf": "\(now + 29)"], nil),
        ("nbf missing", ["nbf": nil], nil),
        ("nbf as a string", ["nbf": "\"\(now)\""], .malformed),
        ("issuer without trailing slash", ["iss": #""https://auth.example.com""#], .wrongIssuer),
        ("issuer with another case", ["iss": #""https://Auth.example.com/""#], .wrongIssuer),
        ("issuer missing", ["iss": nil], .wrongIssuer),
        ("issuer not a string", ["iss": "1"], .wrongIssuer),
        ("wrong audience", ["aud": #""web-app""#], .wrongAudience),
        ("missing audience", ["aud": nil], .wrongAudience),
        ("audience array containing ours", ["aud": #"["web-app","ios-app"]"#], nil),
        ("audience array without ours", ["aud": #"["web-app","android-app"]"#], .wrongAudience),
        ("audience array of non-strings", ["aud": "[1,true,null]"], .wrongAudience),
        ("empty audience array", ["aud": "[]"], .wrongAudience),
        ("audience as a number", ["aud": "7"], .wrongAudience),
        ("sub not a string", ["sub": "42"], .invalidClaim),
        ("sub missing", ["sub": nil], nil),
    ]

    @Test(arguments: cases)
    func checksRegisteredClaims(name: String, changes: [String: String?], reason: AuthFailureReason?) throws {
        let verifier = try Support.hmacVerifier(leeway: .seconds(30))
        let result = verifier.verify(token: Support.hs256(payload: Support.payload(changes)), now: Self.now)
        #expect(result.failureReason == reason, "\(name): \(result)")
    }

    @Test(arguments: [
        ("array", "[1,2]"),
        ("string", #""claims""#),
        ("duplicate members", #"{"sub":"alice","exp":9999999999,"sub":"admin"}"#),
        ("not JSON", "exp=9999999999"),
        ("trailing garbage", #"{"exp":9999999999} x"#),
    ])
    func refusesPayloadThatIsNotOneJSONObject(name: String, payload: String) throws {
        let verifier = try JWTVerifier(providerName: "hs", config: Support.config(algorithms: ["HS256"], secret: Support.secret))
        let result = verifier.verify(token: Support.hs256(payload: payload), now: Self.now)
        #expect(result.failureReason == .malformed, "\(name)")
    }

    @Test func issuerAndAudienceAreOptional() throws {
        let verifier = try JWTVerifier(providerName: "hs", config: Support.config(algorithms: ["HS256"], secret: Support.secret))
        let payload = Support.payload(["iss": #""someone-else""#, "aud": nil])
        #expect(verifier.verify(token: Support.hs256(payload: payload), now: Self.now).isSuccess)
    }

    @Test func issuerComparisonIsByteExact() throws {
        // "é" precomposed and decomposed are equal Swift Strings but different issuers.
        let verifier = try JWTVerifier(providerName: "hs", config: Support.config(
            algorithms: ["HS256"], secret: Support.secret, issuer: "https://caf\u{E9}.example/"))
        let decomposed = Support.payload(["iss": "\"https://cafe\u{301}.example/\""])
        let precomposed = Support.payload(["iss": "\"https://caf\u{E9}.example/\""])
        #expect(verifier.verify(token: Support.hs256(payload: decomposed), now: Self.now).failureReason == .wrongIssuer)
        #expect(verifier.verify(token: Support.hs256(payload: precomposed), now: Self.now).isSuccess)
    }

    // MARK: - Claims as header values

    @Test(arguments: [
        ("sub", HeaderValueResult.value(Array("alice".utf8))),
        ("n", .value(Array("12345678901234567890.50".utf8))),
        ("admin", .value(Array("true".utf8))),
        ("off", .value(Array("false".utf8))),
        ("empty", .value([])),
        ("printable", .value(Array(#"a b~!"{}"#.utf8))),
        ("none", .absent),
        ("nothing", .absent),
        ("crlf", .refused),
        ("lf", .refused),
        ("nul", .refused),
        ("tab", .refused),
        ("del", .refused),
        ("accent", .refused),
        ("list", .refused),
        ("object", .refused),
    ])
    func rendersClaimAsHeaderValue(claim: String, expected: HeaderValueResult) throws {
        let payload = Support.payload([
            "n": "12345678901234567890.50", "admin": "true", "off": "false", "empty": #""""#,
            "printable": #""a b~!\"{}""#, "none": "null", "crlf": #""x\r\nX-Admin: 1""#, "lf": #""x\ny""#,
            "nul": #""x\u0000""#, "tab": #""a\tb""#, "del": #""\u007f""#, "accent": #""José""#,
            "list": #"["a"]"#, "object": #"{"a":1}"#,
        ])
        let verifier = try Support.hmacVerifier()
        let claims = try verifier.verify(token: Support.hs256(payload: payload), now: Self.now).get()
        #expect(claims.headerValue(forClaim: claim) == expected)
    }

    @Test func crlfClaimInAnRS256TokenIsRefusedAsHeader() throws {
        try Support.withFixtureVerifier { verifier in
            let claims = try verifier.verify(token: AuthFixtures.rs256CRLFClaim, now: Self.now).get()
            #expect(claims.headerValue(forClaim: "role") == .refused)
            #expect(claims.headerValue(forClaim: "sub") == .value(Array("alice".utf8)))
        }
    }
}
