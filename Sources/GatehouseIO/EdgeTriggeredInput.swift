/// What the reader of a socket watched edge-triggered (`EventSet.edgeTriggered`) keeps between
/// its reads. Epoll reports such a socket once per change, not on every wait while input is
/// there, so the reader must know itself when input may be left. Two ways to leave some:
///
/// - a read that fills all its room may have left bytes behind: the reader reads again once it
///   has handled what came (`takeMayRemain`), a few times per event (`readsPerEvent`), then asks
///   epoll to look again (`epoll_ctl` MOD re-checks the socket and reports it if it is ready),
///   so that one peer streaming a large body leaves room for the others;
/// - bytes and the peer's close arriving together: the read takes the bytes and comes back
///   short, and no new edge will announce the end. The watch asks for `EPOLLRDHUP`, so the event
///   says the input ends (`noteEvents`); a short read after that asks epoll to look again, and
///   the end comes as an event of its own, after the bytes before it were handled.
///
/// A TLS read ends at a record, so its length says nothing of what the socket still holds:
/// TLS sockets are watched level-triggered, and then none of this applies.
public struct EdgeTriggeredInput {
    /// Edge-triggered (a plain socket) or level-triggered (TLS).
    public let isOn: Bool
    /// Epoll said the peer closed, reset or failed: bytes read since may have been its last.
    private var endReported = false
    /// A read filled its room: the socket may hold more, of which no event will tell.
    private var mayRemain = false

    /// Reads one event may lead to, the first included; after them epoll is asked, and the
    /// other sockets' events come first.
    public static let readsPerEvent = 8

    public init(edgeTriggered: Bool) {
        isOn = edgeTriggered
    }

    /// The interest as the poller is to watch it.
    @inline(__always)
    public func watch(_ interest: EventSet) -> EventSet {
        interest.watched(edgeTriggered: isOn)
    }

    @inline(__always)
    public mutating func noteEvents(_ events: EventSet) {
        if events.endsInput { endReported = true }
    }

    /// A read brought `count` bytes (more than 0) into `room`. True when epoll must be asked to
    /// look again now: the read came back short after the peer's close was reported.
    @inline(__always)
    public mutating func readReturned(_ count: Int, room: Int) -> Bool {
        if count == room {
            mayRemain = isOn
            return false
        }
        return isOn && endReported
    }

    /// Whether the last read filled its room, so another should follow; the mark is cleared.
    @inline(__always)
    public mutating func takeMayRemain() -> Bool {
        defer { mayRemain = false }
        return mayRemain
    }
}
