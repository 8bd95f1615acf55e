/// The share of requests that may be retries after bytes were sent, over a sliding window
/// (README, "Upstream endpoints and resilience"): a failing upstream is not hit with every
/// request twice. Per worker and upstream; time is the caller's (a manual clock in tests).
struct RetryBudget {
    /// The window: ten one-second buckets, so the share reacts within seconds and old traffic ages out.
    static let bucketCount = 10
    static let bucketNanos: UInt64 = 1_000_000_000
    /// A quiet upstream may still retry this many times per window, so one failure among a few
    /// requests is retried.
    static let minimumRetries = 3

    let percent: Int
    private var requests = [Int](repeating: 0, count: bucketCount)
    private var retries = [Int](repeating: 0, count: bucketCount)
    /// The bucket (in `bucketNanos` since the clock's origin) each slot holds.
    private var slotEpoch = [UInt64](repeating: 0, count: bucketCount)

    init(percent: Int) { self.percent = percent }

    mutating func recordRequest(now: UInt64) { requests[slot(now)] += 1 }

    /// Whether one more retry fits; counts it when it does.
    mutating func takeRetry(now: UInt64) -> Bool {
        let current = slot(now)
        let epoch = now / Self.bucketNanos
        let allowed = max(Self.minimumRetries, total(requests, epoch) * percent / 100)
        guard total(retries, epoch) < allowed else { return false }
        retries[current] += 1
        return true
    }

    /// The slot for `now`, emptied first when it held an older second.
    private mutating func slot(_ now: UInt64) -> Int {
        let epoch = now / Self.bucketNanos
        let index = Int(epoch % UInt64(Self.bucketCount))
        if slotEpoch[index] != epoch {
            slotEpoch[index] = epoch
            requests[index] = 0
            retries[index] = 0
        }
        return index
    }

    /// The counts of the slots still inside the window ending at `epoch`.
    private func total(_ counts: [Int], _ epoch: UInt64) -> Int {
        var sum = 0
        for index in 0..<Self.bucketCount where epoch - slotEpoch[index] < UInt64(Self.bucketCount) {
            sum += counts[index]
        }
        return sum
    }
}
