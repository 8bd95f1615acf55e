import Testing
@testable import GatehouseCore

/// Which verified-token cache a worker hands a JWT provider: one per provider, the same one
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

    static func provider(_ name: String) throws -> JWTProvider {
        JWTProvider(name: name, verifier: try AuthTestSupport.hmacVerifier(), claimHeaders: [])
    }

    @Test func eachProviderKeepsItsOwnCacheHoweverRequestsInterleave() throws {
        let worker = try Self.worker()
        let first = try Self.provider("first")
        let second = try Self.provider("second")
        let firstCache = worker.tokenCache(for: first)
        let secondCache = worker.tokenCache(for: second)
        #expect(firstCache !== secondCache)
        // Asked again, alternately and twice in a row: the last-asked memo and the table agree.
        #expect(worker.tokenCache(for: first) === firstCache)
        #expect(worker.tokenCache(for: first) === firstCache)
        #expect(worker.tokenCache(for: second) === secondCache)
        #expect(worker.tokenCache(for: first) === firstCache)
    }

    @Test func aReloadStartsEveryProviderAfresh() throws {
        let worker = try Self.worker()
        let provider = try Self.provider("hs")
        let before = worker.tokenCache(for: provider)
        worker.install(worker.snapshot)
        let after = worker.tokenCache(for: provider)
        #expect(after !== before)
        #expect(worker.tokenCache(for: provider) === after)
    }
}
