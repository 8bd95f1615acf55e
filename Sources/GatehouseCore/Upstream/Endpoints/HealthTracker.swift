/// Consecutive check results to a healthy/unhealthy verdict: `unhealthy` failures in a row take
/// an endpoint out, `healthy` passes in a row bring it back. Endpoints start healthy, so a
/// gateway starting next to a working upstream serves at once.
struct HealthTracker {
    let healthyThreshold: Int
    let unhealthyThreshold: Int
    private(set) var isHealthy = true
    private var streak = 0

    init(healthy: Int, unhealthy: Int) {
        healthyThreshold = healthy
        unhealthyThreshold = unhealthy
    }

    /// Records one check; true when the verdict changed.
    mutating func record(passed: Bool) -> Bool {
        if passed == isHealthy {
            streak = 0
            return false
        }
        streak += 1
        guard streak >= (isHealthy ? unhealthyThreshold : healthyThreshold) else { return false }
        isHealthy = passed
        streak = 0
        return true
    }
}
