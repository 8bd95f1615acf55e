import GatehouseGraphQL
import Testing
@testable import GatehouseCore

/// Firebase ID token rules on top of exp/iss/aud: `sub` non-empty, `auth_time` in the past.
@Suite struct FirebaseClaimRulesTests {
    static let now = 1_700_000_000.0

    // claims -> refusal detail (nil: accepted), with 10 s leeway
    @Test(arguments: [
        (#"{"sub":"u1","auth_time":1699999000}"#, nil),
        (#"{"sub":"u1","auth_time":1700000000}"#, nil),
        (#"{"sub":"u1","auth_time":1700000009}"#, nil),
        (#"{"sub":"u1","auth_time":1700000011}"#, "auth_time is in the future"),
        (#"{"sub":"u1"}"#, "auth_time missing or not a number"),
        (#"{"sub":"u1","auth_time":"yesterday"}"#, "auth_time missing or not a number"),
        (#"{"sub":"","auth_time":1699999000}"#, "sub must be a non-empty string"),
        (#"{"auth_time":1699999000}"#, "sub must be a non-empty string"),
        (#"{"sub":42,"auth_time":1699999000}"#, "sub must be a non-empty string"),
    ] as [(String, String?)])
    func rules(json: String, refusal: String?) throws {
        let claims = try #require(try JSONReader.parse(Array(json.utf8), maxDepth: 4).objectValue)
        let failure = FirebaseClaimRules.check(claims, now: Self.now, leeway: 10)
        #expect(failure?.detail == refusal)
        if failure != nil { #expect(failure?.reason == .invalidClaim) }
    }
}
