import GatehouseGraphQL
import Testing
@testable import GatehouseCore

/// A cached token is never accepted past its own exp (+ leeway) nor past the cache's max age.
struct VerifiedTokenCacheTests {
    private func claims(exp: Int64?) -> VerifiedClaims {
        var object = JSONObject()
        object["sub"] = .string("alice")
        if let exp { object["exp"] = .number(String(exp)) }
        return VerifiedClaims(subject: "alice", claims: object, algorithm: .HS256, keyID: nil)
    }

    @Test func hitsUntilTheTokenExpires() {
        let cache = VerifiedTokenCache()
        let token = Array("a.b.c".utf8)
        token.withUnsafeBytes { cache.store($0, claims(exp: 1_000), now: 990, leeway: 2) }
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_002) }?.subject == "alice")
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_003) } == nil)
    }

    @Test func entriesAgeOut() {
        let cache = VerifiedTokenCache()
        let token = Array("a.b.c".utf8)
        token.withUnsafeBytes { cache.store($0, claims(exp: 100_000), now: 1_000, leeway: 0) }
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_000 + VerifiedTokenCache.maxAge) } != nil)
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_001 + VerifiedTokenCache.maxAge) } == nil)
    }

    /// A remote key set that changed (a rotation dropped a key) re-verifies every cached token.
    @Test func anotherKeyGenerationMisses() {
        let cache = VerifiedTokenCache()
        let token = Array("a.b.c".utf8)
        token.withUnsafeBytes { cache.store($0, claims(exp: 100_000), now: 1_000, leeway: 0, generation: 4) }
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_001, generation: 4) } != nil)
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_001, generation: 5) } == nil)
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_001, generation: 4) } == nil)  // dropped on the miss
    }

    @Test func onlyTheSameBytesHit() {
        let cache = VerifiedTokenCache()
        Array("a.b.c".utf8).withUnsafeBytes { cache.store($0, claims(exp: 100_000), now: 1_000, leeway: 0) }
        #expect(Array("a.b.d".utf8).withUnsafeBytes { cache.lookup($0, now: 1_001) } == nil)
        #expect(Array("a.b.c".utf8).withUnsafeBytes { cache.lookup($0, now: 1_001) } != nil)
    }

    /// Tokens of one length that end alike share a slot: the stored token is compared whole, so
    /// neither is taken for the other, short ones included.
    @Test func tokensThatEndAlikeAreNotTakenForEachOther() {
        let cache = VerifiedTokenCache()
        for (stored, other) in [("header.payload-one.same-signature-end", "header.payload-two.same-signature-end"),
                                ("a.b", "c.b")] {
            Array(stored.utf8).withUnsafeBytes { cache.store($0, claims(exp: 100_000), now: 1_000, leeway: 0) }
            #expect(Array(other.utf8).withUnsafeBytes { cache.lookup($0, now: 1_001) } == nil)
            #expect(Array(stored.utf8).withUnsafeBytes { cache.lookup($0, now: 1_001) } != nil)
        }
    }

    @Test func expiredTokensAreNotStored() {
        let cache = VerifiedTokenCache()
        let token = Array("a.b.c".utf8)
        token.withUnsafeBytes { cache.store($0, claims(exp: 900), now: 1_000, leeway: 30) }
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_000) } == nil)
    }
}
