import Testing
@testable import GatehouseCore

/// Which verified-token cache a worker hands a JWT provider: one per verifier, the same one
/// however requests for different providers interleave, and a fresh one after a reload.
@Suite struct WorkerTokenCacheTests {
    static func worker() throws -> Worker {
        guard let snapshot = WorkerTestSnapshot.oneRoute(upstream: "token-cache-suite") else {
            Issue.record("the test configuration was refused")
            throw CancellationError()
        }
        return Worker(index: 0, snapshot: snapshot, listenerFD: -1,
                      shared: SharedServerState(maxConnections: 4), logFD: -1)
    }

    @Test func eachVerifierKeepsItsOwnCacheHoweverRequestsInterleave() throws {
        let worker = try Self.worker()
        let first = try AuthTestSupport.hmacVerifier()
        let second = try AuthTestSupport.hmacVerifier()
        let firstCache = worker.tokenCache(for: first)
        let secondCache = worker.tokenCache(for: second)
        #expect(firstCache !== secondCache)
        // Asked again, alternately and twice in a row: the last-asked memo and the table agree.
        #expect(worker.tokenCache(for: first) === firstCache)
        #expect(worker.tokenCache(for: first) === firstCache)
        #expect(worker.tokenCache(for: second) === secondCache)
        #expect(worker.tokenCache(for: first) === firstCache)
    }

    @Test func aReloadStartsEveryVerifierAfresh() throws {
        let worker = try Self.worker()
        let verifier = try AuthTestSupport.hmacVerifier()
        let before = worker.tokenCache(for: verifier)
        worker.install(worker.snapshot)
        let after = worker.tokenCache(for: verifier)
        #expect(after !== before)
        #expect(worker.tokenCache(for: verifier) === after)
    }
}
