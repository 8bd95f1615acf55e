import Testing
@testable import GatehouseCore

@Suite("JWTMinter")
struct AuthJWTMinterTests {
    @Test func matchesPyJWTByteForByte() {
        let token = JWTMinter.hs256(secret: AuthTestSupport.secret, claims: [
            ("sub", .string("alice")), ("exp", .number("1700003600")), ("admin", .bool(true)),
        ])
        // python3 -c "import jwt; print(jwt.encode({'sub':'alice','exp':1700003600,'admin':True}, SECRET, algorithm='HS256'))"
        #expect(token == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSIsImV4cCI6MTcwMDAwMzYwMCwiYWRtaW4iOnRydWV9.ul5PnbrKNteODvDsYFfkdKOP6CgzlwpuGi6mPwOSvKc")
    }

    @Test func mintedTokenVerifies() throws {
        let token = JWTMinter.hs256(secret: AuthTestSupport.secret, claims: [
            ("sub", .string("bob")), ("iss", .string(AuthFixtures.issuer)), ("aud", .array([.string(AuthFixtures.audience)])),
            ("exp", .number("\(AuthFixtures.now + 3600)")), ("role", .string("editor")),
        ])
        let claims = try AuthTestSupport.hmacVerifier().verify(token: token, now: AuthFixtures.now).get()
        #expect(claims.subject == "bob")
        #expect(claims.headerValue(forClaim: "role") == .value(Array("editor".utf8)))
    }
}
