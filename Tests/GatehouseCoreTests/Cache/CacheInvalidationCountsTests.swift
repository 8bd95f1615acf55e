import Testing
@testable import GatehouseCore

/// A fill notes its operation's invalidation count when it goes upstream; a mutation that drops
/// the operation in between makes the fill store nothing.
struct CacheInvalidationCountsTests {
    @Test func aMutationInBetweenIsSeenOnlyForItsOperations() {
        let counts = CacheInvalidationCounts()
        let movies = counts.count(of: "Movies")
        let actors = counts.count(of: "Actors")
        counts.record(["Movies"])
        #expect(counts.count(of: "Movies") != movies)
        #expect(counts.count(of: "Actors") == actors)
        let later = counts.count(of: "Movies")
        #expect(counts.count(of: "Movies") == later)
    }
}
