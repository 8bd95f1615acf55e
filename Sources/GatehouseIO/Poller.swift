import CLinux
import Glibc

/// Readiness an fd is watched for, or reported with.
public struct EventSet: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    // Linux's values (<sys/epoll.h>, fixed by its ABI; the unit tests compare them with the C
    // shim's GH_EPOLL*) as literals: a stored static read from C constants is initialized lazily,
    // a `swift_once` on each of the several reads every event makes.
    /// EPOLLIN.
    public static var readable: EventSet { EventSet(rawValue: 0x001) }
    /// EPOLLOUT.
    public static var writable: EventSet { EventSet(rawValue: 0x004) }
    /// The peer shut down its sending side (EPOLLRDHUP).
    public static var peerClosed: EventSet { EventSet(rawValue: 0x2000) }
    /// EPOLLERR.
    public static var error: EventSet { EventSet(rawValue: 0x008) }
    /// EPOLLHUP.
    public static var hangup: EventSet { EventSet(rawValue: 0x010) }
    /// EPOLLET: readiness is reported when it arises (new bytes, new room), not on every wait
    /// while it lasts, so a ready socket is polled once per event instead of again on the next
    /// wait. A handler that leaves bytes in the socket must ask again: `modify` re-checks
    /// readiness and reports what holds.
    public static var edgeTriggered: EventSet { EventSet(rawValue: 0x8000_0000) }

    /// What epoll is asked for a socket that wants `self`: as it is (level-triggered), or
    /// edge-triggered with the peer's close asked for while reading. An edge reports a close
    /// once, together with the bytes before it, and the read that takes those bytes cannot tell
    /// that a close followed: a handler told `peerClosed` (or `hangup`) asks again after reading.
    public func watched(edgeTriggered: Bool) -> EventSet {
        guard edgeTriggered else { return self }
        return contains(.readable) ? union([.edgeTriggered, .peerClosed]) : union(.edgeTriggered)
    }

    /// The peer closed its side, reset or failed the connection: reading ends in 0 or an error.
    public var endsInput: Bool { !intersection([.peerClosed, .hangup, .error]).isEmpty }
}

/// A thin epoll wrapper: register, modify, remove, wait.
public struct Poller: ~Copyable {
    public let fd: Int32
    private var events: UnsafeMutablePointer<gh_event>
    private let capacity: Int32

    public init(capacity: Int32 = 256) {
        fd = gh_epoll_create()
        precondition(fd >= 0, "epoll_create1 failed: \(Syscalls.errorText(errno))")
        self.capacity = capacity
        events = .allocate(capacity: Int(capacity))
    }

    deinit {
        events.deallocate()
        Syscalls.close(fd)
    }

    @discardableResult
    public func add(_ target: Int32, _ interest: EventSet, token: UInt64) -> Bool {
        gh_epoll_ctl(fd, GH_EPOLL_CTL_ADD, target, interest.rawValue, token) == 0
    }

    @discardableResult
    public func modify(_ target: Int32, _ interest: EventSet, token: UInt64) -> Bool {
        gh_epoll_ctl(fd, GH_EPOLL_CTL_MOD, target, interest.rawValue, token) == 0
    }

    public func remove(_ target: Int32) {
        _ = gh_epoll_ctl(fd, GH_EPOLL_CTL_DEL, target, 0, 0)
    }

    /// Waits up to `timeoutMs` (-1: forever) and calls `body` with each ready token and its events.
    public func wait(timeoutMs: Int32, _ body: (UInt64, EventSet) -> Void) {
        let n = gh_epoll_wait(fd, events, capacity, timeoutMs)
        if n <= 0 { return }
        for i in 0..<Int(n) {
            body(events[i].token, EventSet(rawValue: events[i].events))
        }
    }
}
