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
        token.withUnsafeBytes { _ = cache.store($0, claims(exp: 1_000), now: 990, leeway: 2) }
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_002) }?.claims.subject == "alice")
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_003) } == nil)
    }

    @Test func entriesAgeOut() {
        let cache = VerifiedTokenCache()
        let token = Array("a.b.c".utf8)
        token.withUnsafeBytes { _ = cache.store($0, claims(exp: 100_000), now: 1_000, leeway: 0) }
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_000 + VerifiedTokenCache.maxAge) } != nil)
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_001 + VerifiedTokenCache.maxAge) } == nil)
    }

    /// A remote key set that changed (a rotation dropped a key) re-verifies every cached token.
    @Test func anotherKeyGenerationMisses() {
        let cache = VerifiedTokenCache()
        let token = Array("a.b.c".utf8)
        token.withUnsafeBytes { _ = cache.store($0, claims(exp: 100_000), now: 1_000, leeway: 0, generation: 4) }
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_001, generation: 4) } != nil)
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_001, generation: 5) } == nil)
        // Verified again under the new generation: the entry is replaced, not added beside.
        token.withUnsafeBytes { _ = cache.store($0, claims(exp: 100_000), now: 1_001, leeway: 0, generation: 5) }
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_002, generation: 5) } != nil)
        #expect(cache.count == 1)
    }

    @Test func onlyTheSameBytesHit() {
        let cache = VerifiedTokenCache()
        Array("a.b.c".utf8).withUnsafeBytes { _ = cache.store($0, claims(exp: 100_000), now: 1_000, leeway: 0) }
        #expect(Array("a.b.d".utf8).withUnsafeBytes { cache.lookup($0, now: 1_001) } == nil)
        #expect(Array("a.b.c".utf8).withUnsafeBytes { cache.lookup($0, now: 1_001) } != nil)
    }

    /// Tokens of one length that end alike share a slot: the stored token is compared whole, so
    /// neither is taken for the other, short ones included.
    @Test func tokensThatEndAlikeAreNotTakenForEachOther() {
        let cache = VerifiedTokenCache()
        for (stored, other) in [("header.payload-one.same-signature-end", "header.payload-two.same-signature-end"),
                                ("a.b", "c.b")] {
            Array(stored.utf8).withUnsafeBytes { _ = cache.store($0, claims(exp: 100_000), now: 1_000, leeway: 0) }
            #expect(Array(other.utf8).withUnsafeBytes { cache.lookup($0, now: 1_001) } == nil)
            #expect(Array(stored.utf8).withUnsafeBytes { cache.lookup($0, now: 1_001) } != nil)
        }
    }

    @Test func expiredTokensAreNotStored() {
        let cache = VerifiedTokenCache()
        let token = Array("a.b.c".utf8)
        token.withUnsafeBytes { _ = cache.store($0, claims(exp: 900), now: 1_000, leeway: 30) }
        #expect(token.withUnsafeBytes { cache.lookup($0, now: 1_000) } == nil)
    }

    /// A hit hands back what was stored with the token: its claim header lines, or their
    /// absence (claims that cannot be headers are refused again without a verification).
    @Test func aHitCarriesTheHeaderLinesMadeWhenItWasVerified() {
        let cache = VerifiedTokenCache()
        Array("a.b.c".utf8).withUnsafeBytes {
            _ = cache.store($0, claims(exp: 100_000), headerBlock: Array("X-User: alice\r\n".utf8), now: 1_000, leeway: 0)
        }
        Array("a.b.d".utf8).withUnsafeBytes { _ = cache.store($0, claims(exp: 100_000), headerBlock: nil, now: 1_000, leeway: 0) }
        let hit = Array("a.b.c".utf8).withUnsafeBytes { cache.lookup($0, now: 1_001) }
        #expect(hit?.headerBlock == Array("X-User: alice\r\n".utf8))
        #expect(hit?.expiry == 100_000)
        let refused = Array("a.b.d".utf8).withUnsafeBytes { cache.lookup($0, now: 1_001) }
        #expect(refused != nil && refused?.headerBlock == nil)
    }

    /// Tokens whose probe window is full: the newcomer takes the slot of the entry that would
    /// stop answering first; every other entry still answers.
    @Test func aFullWindowGivesUpTheEntryThatStopsAnsweringFirst() {
        let cache = VerifiedTokenCache(seed: 7)
        let tokens = Self.tokensSharingAWindow(VerifiedTokenCache.probeLimit + 1, in: cache)
        // Each stored token expires a second later than the one before, except the fourth,
        // which expires soonest.
        for (offset, token) in tokens.dropLast().enumerated() {
            let exp: Int64 = offset == 3 ? 1_005 : 1_010 + Int64(offset)
            token.withUnsafeBytes { _ = cache.store($0, claims(exp: exp), now: 1_000, leeway: 0) }
        }
        tokens.last!.withUnsafeBytes { _ = cache.store($0, claims(exp: 100_000), now: 1_000, leeway: 0) }
        for (offset, token) in tokens.enumerated() {
            let hit = token.withUnsafeBytes { cache.lookup($0, now: 1_001) }
            #expect((hit != nil) == (offset != 3), "token \(offset)")
        }
        #expect(cache.count == VerifiedTokenCache.probeLimit)
    }

    /// However many tokens come, the table holds at most `slotCount`, and the latest one answers.
    @Test func manyTokensStayWithinTheTable() {
        let cache = VerifiedTokenCache()
        var last: [UInt8] = []
        for number in 0..<(3 * VerifiedTokenCache.slotCount) {
            last = Array("header.payload.signature-\(number)".utf8)
            last.withUnsafeBytes { _ = cache.store($0, claims(exp: 100_000), now: 1_000, leeway: 0) }
        }
        #expect(cache.count <= VerifiedTokenCache.slotCount)
        #expect(cache.count > VerifiedTokenCache.slotCount / 2)
        #expect(last.withUnsafeBytes { cache.lookup($0, now: 1_001) } != nil)
    }

    /// Distinct tokens whose slot index is the same under `cache`'s seed.
    private static func tokensSharingAWindow(_ count: Int, in cache: VerifiedTokenCache) -> [[UInt8]] {
        var byHome: [Int: [[UInt8]]] = [:]
        var number = 0
        while true {
            let token = Array("header.payload.sig\(number)".utf8)
            number += 1
            let home = token.withUnsafeBytes { cache.home($0) }
            byHome[home, default: []].append(token)
            if byHome[home]!.count == count { return byHome[home]! }
        }
    }
}
