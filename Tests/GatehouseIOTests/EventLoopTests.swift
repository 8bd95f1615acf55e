import CLinux
import Glibc
import Synchronization
import Testing
@testable import GatehouseIO

/// The event loop and its poller against real descriptors (a socket pair): readiness reaches the
/// registered handler, interest changes take effect, stale events of a reused descriptor number
/// are dropped, timers and deferred work run, and other threads reach the loop through `post`.
@Suite(.serialized) struct EventLoopTests {
    final class Recorder: IOHandler, TimerTarget {
        var events: [EventSet] = []
        var deadline: UInt64 = 0
        var scheduledDeadline: UInt64 = 0
        var fired: [UInt64] = []
        var onEvent: (EventSet) -> Void = { _ in }
        func handleEvents(_ events: EventSet) {
            self.events.append(events)
            onEvent(events)
        }
        func deadlineReached(now: UInt64) { fired.append(now) }
    }

    static func socketPair() -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    static func run(_ loop: EventLoop, for limitNanos: UInt64 = 2_000_000_000) {
        loop.run(forAtMost: limitNanos)
    }

    /// The event bits are written as literals (read as constants, not initialized at run time):
    /// they must be the system's, as the C shim takes them from <sys/epoll.h>.
    @Test func eventBitsAreTheSystems() {
        #expect(EventSet.readable.rawValue == GH_EPOLLIN)
        #expect(EventSet.writable.rawValue == GH_EPOLLOUT)
        #expect(EventSet.peerClosed.rawValue == GH_EPOLLRDHUP)
        #expect(EventSet.error.rawValue == GH_EPOLLERR)
        #expect(EventSet.hangup.rawValue == GH_EPOLLHUP)
        #expect(EventSet.edgeTriggered.rawValue == GH_EPOLLET)
    }

    /// An edge-triggered watch also asks for the peer's close while reading; a level-triggered
    /// one is the interest as it is.
    @Test func watchingEdgeTriggeredAsksForThePeersCloseWhileReading() {
        #expect(EventSet.readable.watched(edgeTriggered: false) == .readable)
        #expect(EventSet.readable.watched(edgeTriggered: true) == [.readable, .edgeTriggered, .peerClosed])
        #expect(EventSet.writable.watched(edgeTriggered: true) == [.writable, .edgeTriggered])
        #expect(EventSet([]).watched(edgeTriggered: true) == .edgeTriggered)
        #expect(EventSet.peerClosed.endsInput && EventSet.hangup.endsInput && EventSet.error.endsInput)
        #expect(!EventSet([.readable, .writable]).endsInput)
    }

    /// Level-triggered, unread bytes are reported on every wait; edge-triggered, once, until
    /// more arrive or `modify` asks epoll to look again.
    @Test func anEdgeTriggeredWatchReportsUnreadBytesOnceUntilAskedAgain() {
        let loop = EventLoop(name: "test")
        let (a, b) = Self.socketPair()
        let (c, d) = Self.socketPair()
        defer { Syscalls.close(a); Syscalls.close(b); Syscalls.close(c); Syscalls.close(d) }
        let edge = Recorder(), level = Recorder()
        let edgeToken = loop.register(a, EventSet.readable.watched(edgeTriggered: true), handler: edge)
        loop.register(c, .readable, handler: level)
        var byte: UInt8 = 7
        #expect(Syscalls.write(b, &byte, 1) == .done(1))
        #expect(Syscalls.write(d, &byte, 1) == .done(1))
        for _ in 0..<3 { Self.run(loop, for: 20_000_000) }
        #expect(edge.events.count == 1)
        #expect(level.events.count >= 3)
        loop.modify(a, EventSet.readable.watched(edgeTriggered: true), token: edgeToken)
        Self.run(loop, for: 20_000_000)
        #expect(edge.events.count == 2)
        #expect(Syscalls.write(b, &byte, 1) == .done(1))
        Self.run(loop, for: 20_000_000)
        #expect(edge.events.count == 3)
    }

    /// The peer's close reaches an edge-triggered reader as `peerClosed` with the bytes before it.
    @Test func aPeersCloseComesWithTheBytesBeforeIt() {
        let loop = EventLoop(name: "test")
        let (a, b) = Self.socketPair()
        defer { Syscalls.close(a) }
        let recorder = Recorder()
        loop.register(a, EventSet.readable.watched(edgeTriggered: true), handler: recorder)
        var byte: UInt8 = 7
        #expect(Syscalls.write(b, &byte, 1) == .done(1))
        Syscalls.close(b)
        recorder.onEvent = { _ in loop.stop() }
        Self.run(loop)
        #expect(recorder.events.first.map { $0.contains(.readable) && $0.endsInput } == true)
    }

    /// A stopped loop lets go of its handlers, timers and deferred work: what they hold (a
    /// connection holds its worker, which holds the loop) must not outlive the worker in a cycle.
    @Test func aLoopDoneForGoodHoldsNothing() {
        let loop = EventLoop(name: "test")
        let (a, b) = Self.socketPair()
        defer { Syscalls.close(a); Syscalls.close(b) }
        weak var registered: Recorder?
        weak var timed: Recorder?
        weak var deferred: Recorder?
        do {
            let handler = Recorder()
            let target = Recorder()
            let work = Recorder()
            registered = handler
            timed = target
            deferred = work
            loop.register(a, .readable, handler: handler)
            target.deadline = loop.now + 60_000_000_000
            loop.scheduleDeadline(target)
            loop.defer_ { _ = work }
        }
        #expect(registered != nil && timed != nil && deferred != nil)
        loop.releaseEverything()
        #expect(registered == nil && timed == nil && deferred == nil)
    }

    @Test func readinessReachesTheHandler() {
        let loop = EventLoop(name: "test")
        let (a, b) = Self.socketPair()
        defer { Syscalls.close(a); Syscalls.close(b) }
        let recorder = Recorder()
        loop.register(a, .readable, handler: recorder)
        recorder.onEvent = { _ in loop.stop() }
        var byte: UInt8 = 7
        #expect(Syscalls.write(b, &byte, 1) == .done(1))
        Self.run(loop)
        #expect(recorder.events.first?.contains(.readable) == true)
    }

    @Test func interestChangesTakeEffect() {
        let loop = EventLoop(name: "test")
        let (a, b) = Self.socketPair()
        defer { Syscalls.close(a); Syscalls.close(b) }
        let recorder = Recorder()
        let token = loop.register(a, [], handler: recorder)
        // Nothing watched: a writable socket reports nothing.
        Self.run(loop, for: 50_000_000)
        #expect(recorder.events.isEmpty)
        loop.modify(a, .writable, token: token)
        recorder.onEvent = { _ in loop.stop() }
        Self.run(loop)
        #expect(recorder.events.first?.contains(.writable) == true)
    }

    @Test func staleEventsForAReusedDescriptorAreDropped() {
        let loop = EventLoop(name: "test")
        let (a, b) = Self.socketPair()
        defer { Syscalls.close(b) }
        let old = Recorder()
        let oldToken = loop.register(a, .readable, handler: old)
        loop.unregister(a)
        let new = Recorder()
        let newToken = loop.register(a, [], handler: new)
        #expect(oldToken != newToken)  // the generation in the token changed
        Syscalls.close(a)
        #expect(old.events.isEmpty && new.events.isEmpty)
    }

    @Test func timersFireInOrderAndDeferredWorkRunsAfterTheEvent() {
        let loop = EventLoop(name: "test")
        let early = Recorder(), late = Recorder()
        let now = loop.now
        late.deadline = now + 30_000_000
        early.deadline = now + 10_000_000
        loop.scheduleDeadline(late)
        loop.scheduleDeadline(early)
        var order: [String] = []
        loop.defer_ { order.append("deferred") }
        Self.run(loop, for: 60_000_000)
        #expect(early.fired.count == 1 && late.fired.count == 1)
        #expect(early.fired[0] <= late.fired[0])
        #expect(order == ["deferred"])
    }

    @Test func otherThreadsPostToTheLoop() {
        let loop = EventLoop(name: "test")
        let received = Mutex<[Int]>([])
        let thread = WorkerThread.start(name: "poster") {
            for value in 1...3 {
                loop.post { _ in received.withLock { $0.append(value) } }
            }
            loop.post { loop in loop.stop() }
        }
        Self.run(loop)
        WorkerThread.join(thread)
        #expect(received.withLock { $0 } == [1, 2, 3])
    }
}
