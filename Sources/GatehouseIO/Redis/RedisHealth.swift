/// Whether a Redis store is worth asking, and when to try its connection again. A pure value on
/// the loop's clock, so the down-marking and the backoff are unit-test rows on a manual clock.
///
/// After `failuresBeforeDown` failures in a row (timeouts, lost connections, refused connects) the
/// store is *down*: callers skip it at once instead of waiting for a timeout on every request.
/// Connection attempts follow `RedisBackoff`; the first success (a handshake answered, a command
/// answered) brings it up again and resets the schedule.
public struct RedisHealth: Sendable, Equatable {
    /// Three strikes: one slow answer is noise, three in a row is an outage.
    public static let failuresBeforeDown = 3

    public private(set) var consecutiveFailures = 0
    public private(set) var isDown = false
    /// Connection attempts that failed since the last success; picks the next backoff.
    public private(set) var failedAttempts = 0

    public init() {}

    /// What a recorded event changed.
    public enum Transition: Sendable, Equatable {
        case none
        case wentDown
        case cameUp
    }

    /// A command or handshake answered.
    public mutating func recordSuccess() -> Transition {
        consecutiveFailures = 0
        failedAttempts = 0
        guard isDown else { return .none }
        isDown = false
        return .cameUp
    }

    /// A command that failed (timed out, lost with its connection, or refused for want of one).
    public mutating func recordFailure() -> Transition {
        consecutiveFailures += 1
        guard !isDown, consecutiveFailures >= Self.failuresBeforeDown else { return .none }
        isDown = true
        return .wentDown
    }

    /// A failure that will not go away by itself (wrong password, unknown database): down at once.
    public mutating func markDown() -> Transition {
        consecutiveFailures = max(consecutiveFailures, Self.failuresBeforeDown)
        guard !isDown else { return .none }
        isDown = true
        return .wentDown
    }

    /// A connection attempt failed or a connection broke at `now`: the failure is recorded and
    /// the next attempt is due at the returned time.
    public mutating func connectionFailed(now: UInt64) -> (transition: Transition, retryAt: UInt64) {
        let transition = recordFailure()
        failedAttempts += 1
        return (transition, now + RedisBackoff.delay(afterFailedAttempts: failedAttempts))
    }
}

/// The reconnect schedule: 250 ms after the first failed attempt, doubling up to 10 s — quick
/// enough that a restarted Redis is used again within a second or two, slow enough that a dead
/// one costs a connect attempt every 10 s per worker.
public enum RedisBackoff {
    public static let initialNanos: UInt64 = 250_000_000
    public static let maximumNanos: UInt64 = 10_000_000_000

    public static func delay(afterFailedAttempts attempts: Int) -> UInt64 {
        guard attempts > 1 else { return initialNanos }
        // Past 2^6 × 250 ms the cap has long been reached; the shift stays small.
        let doublings = UInt64(min(attempts - 1, 6))
        return min(initialNanos << doublings, maximumNanos)
    }
}
