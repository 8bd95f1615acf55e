/// The timers of one tunnel, apart from any clock so each is a table row on a manual clock:
/// `idle_timeout` (moved on by every frame), `max_lifetime`, and the verified token's expiry
/// (`close_on_expiry`), plus the grace a closing tunnel gives the client to take its close frame.
struct WebSocketDeadlines: Equatable {
    /// Monotonic nanoseconds; 0 = not armed.
    var idle: UInt64
    let lifetime: UInt64
    /// Set when a `connection_init` token has been verified.
    var credentials: UInt64
    var closeGrace: UInt64 = 0
    /// When a busy tunnel checks whether it has gone quiet enough to give its buffers back.
    var bufferRelease: UInt64 = 0
    let idleNanos: UInt64

    /// How long a tunnel must be without frames before its empty buffers go back: long against
    /// the gaps of a busy stream (so it allocates no buffer per read), short against an idle
    /// subscription's life (1,000 of them stay within a few KiB each).
    static let bufferQuietNanos: UInt64 = 100_000_000

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
        [idle, lifetime, credentials, closeGrace, bufferRelease].filter { $0 != 0 }.min() ?? 0
    }

    /// A relay ran: the buffers stay until the tunnel is quiet. True when the buffer check was not
    /// armed yet (the caller arms the timer for it).
    mutating func keepBuffers(now: UInt64) -> Bool {
        guard bufferRelease == 0 else { return false }
        bufferRelease = now + Self.bufferQuietNanos
        return true
    }

    /// At a timer: true when the tunnel has been quiet long enough and the buffers go back now;
    /// a tunnel that moved frames meanwhile is checked again `bufferQuietNanos` after its last one.
    mutating func buffersMayGo(at now: UInt64) -> Bool {
        guard bufferRelease != 0, now >= bufferRelease else { return false }
        let lastFrame = idle - idleNanos
        if now >= lastFrame + Self.bufferQuietNanos {
            bufferRelease = 0
            return true
        }
        bufferRelease = lastFrame + Self.bufferQuietNanos
        return false
    }

    /// The expiry that has come, the token's first (its close code says the most).
    func expired(at now: UInt64) -> Expiry? {
        if credentials != 0 && now >= credentials { return .credentials }
        if now >= lifetime { return .lifetime }
        if now >= idle { return .idle }
        return nil
    }
}
