/// `server.min_body_rate` for request bodies that stream to the upstream (routes with
/// `request_buffering: false`): after a grace period, a client whose last few seconds brought
/// fewer bytes than the rate allows is too slow, and its request is refused with 408 — such a
/// client would otherwise hold an upstream connection for as long as it likes. Pure: the exchange
/// calls `check(now:)` once per `tick` with its own clock.
struct BodyRateMeter: Equatable {
    /// Bytes per second; 0 disables the check.
    let minimumRate: Int
    private(set) var received = 0
    /// `received` at the start and at every tick since, the oldest first (at most a window's worth).
    private var marks: [Int] = [0]
    private var ticks = 0

    static let tickNanos: UInt64 = 1_000_000_000
    /// Seconds averaged over, and seconds of grace before the first verdict.
    static let windowTicks = 5
    static let graceTicks = 5

    init(minimumRate: Int) {
        self.minimumRate = minimumRate
    }

    var isEnabled: Bool { minimumRate > 0 }

    mutating func record(_ bytes: Int) { received += bytes }

    /// One tick has passed; true when the body now arrives too slowly.
    mutating func tick() -> Bool {
        ticks += 1
        marks.append(received)
        if marks.count > Self.windowTicks + 1 { marks.removeFirst() }
        guard isEnabled, ticks >= Self.graceTicks, marks.count == Self.windowTicks + 1 else { return false }
        return received - marks[0] < minimumRate * Self.windowTicks
    }
}
