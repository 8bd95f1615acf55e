import Synchronization

/// `gatehouse_jwks_refresh_total{provider,outcome}` of one remote key set; the key age comes
/// from the source's last good fetch.
final class JWKSMetrics: Sendable {
    enum Outcome: Int, CaseIterable {
        case success, failure
        var label: String { String(describing: self) }
    }

    private let successes = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)

    func record(_ outcome: Outcome) {
        switch outcome {
        case .success: successes.add(1, ordering: .relaxed)
        case .failure: failures.add(1, ordering: .relaxed)
        }
    }

    func count(_ outcome: Outcome) -> Int {
        switch outcome {
        case .success: successes.load(ordering: .relaxed)
        case .failure: failures.load(ordering: .relaxed)
        }
    }
}
