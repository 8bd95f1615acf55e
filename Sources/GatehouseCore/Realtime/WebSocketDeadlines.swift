/// The timers of one tunnel, apart from any clock so each is a table row on a manual clock:
/// `idle_timeout` (moved on by every frame), `max_lifetime`, and the verified token's expiry
/// (`close_on_expiry`), plus the grace a closing tunnel gives the client to take its close frame.
struct WebSocketDeadlines: Equatable {
    /// Monotonic nanoseconds; 0 = not armed.
    var idle: UInt64
    let lifetime: UInt64
    let credentials: UInt64
    var closeGrace: UInt64 = 0
    let idleNanos: UInt64

    enum Expiry: Equatable {
        case idle
        case lifetime
        case credentials
    }

    init(now: UInt64, idleNanos: UInt64, lifetimeNanos: UInt64, expiresAt: UInt64) {
        self.idleNanos = idleNanos
        idle = now + idleNanos
        lifetime = now + lifetimeNanos
        credentials = expiresAt
    }

    /// A frame passed: the tunnel is not idle. The armed timer finds the deadline moved.
    mutating func activity(now: UInt64) {
        idle = now + idleNanos
    }

    var next: UInt64 {
        [idle, lifetime, credentials, closeGrace].filter { $0 != 0 }.min() ?? 0
    }

    /// The expiry that has come, the token's first (its close code says the most).
    func expired(at now: UInt64) -> Expiry? {
        if credentials != 0 && now >= credentials { return .credentials }
        if now >= lifetime { return .lifetime }
        if now >= idle { return .idle }
        return nil
    }
}
