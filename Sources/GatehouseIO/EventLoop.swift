import CLinux

/// Something registered with an event loop for an fd.
public protocol IOHandler: AnyObject {
    func handleEvents(_ events: EventSet)
}

/// One per worker thread, sharing nothing: its own epoll, timers and handler table. Everything
/// registered with a loop is touched only on that loop's thread; other threads talk to it only
/// through `post`, which queues a message and wakes the loop through an eventfd.
public final class EventLoop: @unchecked Sendable {
    public typealias Message = @Sendable (EventLoop) -> Void

    private struct Slot {
        var handler: (any IOHandler)?
        var generation: UInt32
    }

    private let poller = Poller()
    private var slots: [Slot] = []
    private var timers = TimerHeap()
    private let wakeFD: Int32
    private let mailbox = Locked<[Message]>([])
    private var deferred: [() -> Void] = []
    private var running = false

    /// Monotonic nanoseconds, read when a wait returns and again before timers run: older than
    /// the wall by at most the work of one wakeup, which timeouts of milliseconds and up allow.
    public private(set) var now: UInt64

    public let name: String

    public init(name: String) {
        self.name = name
        now = gh_monotonic_ns()
        wakeFD = gh_eventfd()
        precondition(wakeFD >= 0, "eventfd failed")
        poller.add(wakeFD, .readable, token: Self.wakeToken)
    }

    deinit { Syscalls.close(wakeFD) }

    private static let wakeToken = UInt64.max

    // MARK: - Registration

    /// Watches `fd` for `interest`, delivering its events to `handler`. Returns the token that
    /// `modify` takes; it changes every time an fd number is reused so that a stale event for an
    /// earlier owner of the number is dropped.
    @discardableResult
    public func register(_ fd: Int32, _ interest: EventSet, handler: any IOHandler) -> UInt64 {
        let index = Int(fd)
        if index >= slots.count {
            slots.append(contentsOf: repeatElement(Slot(handler: nil, generation: 0), count: max(index + 1 - slots.count, 256)))
        }
        slots[index].generation &+= 1
        slots[index].handler = handler
        let token = UInt64(slots[index].generation) << 32 | UInt64(UInt32(bitPattern: fd))
        poller.add(fd, interest, token: token)
        return token
    }

    public func modify(_ fd: Int32, _ interest: EventSet, token: UInt64) {
        poller.modify(fd, interest, token: token)
    }

    /// Stops watching `fd` (call before closing it).
    public func unregister(_ fd: Int32) {
        let index = Int(fd)
        guard index < slots.count else { return }
        slots[index].handler = nil
        slots[index].generation &+= 1
        poller.remove(fd)
    }

    // MARK: - Timers and deferred work

    /// Makes the loop honour `target.deadline` (call after setting it). Generic and inlined, so
    /// the common case (the deadline moved later: nothing to push) reads two fields of the
    /// caller's own type, with no existential made and no retain.
    @inlinable
    public func scheduleDeadline<Target: TimerTarget>(_ target: Target) {
        if target.deadline != 0 && (target.scheduledDeadline == 0 || target.deadline < target.scheduledDeadline) {
            pushDeadline(target)
        }
    }

    @usableFromInline
    func pushDeadline(_ target: any TimerTarget) {
        timers.schedule(target)
    }

    /// Runs `work` on this loop after the current event has been handled.
    public func defer_(_ work: @escaping () -> Void) {
        deferred.append(work)
    }

    /// Queues `message` for the loop's thread and wakes it. Callable from any thread.
    public func post(_ message: @escaping Message) {
        mailbox.withLock { $0.append(message) }
        _ = gh_eventfd_signal(wakeFD)
    }

    // MARK: - Running

    /// Runs until `stop()`; must be called on the loop's own thread.
    public func run() {
        running = true
        while running {
            let timeout: Int32
            if !deferred.isEmpty {
                timeout = 0
            } else if let next = timers.nextDeadline {
                let current = gh_monotonic_ns()
                timeout = next <= current ? 0 : Int32(min((next - current + 999_999) / 1_000_000, 60_000))
            } else {
                timeout = 60_000
            }
            // The clock is read once per wakeup, not per event: a full wakeup carries dozens of
            // events and each read is a vDSO call. Handlers later in the batch see a time older
            // by the work before them (what nginx's cached time and Envoy's approximate
            // monotonic time accept too); timers below get a fresh reading.
            var clockRead = false
            poller.wait(timeoutMs: timeout) { token, events in
                if !clockRead {
                    now = gh_monotonic_ns()
                    clockRead = true
                }
                dispatch(token, events)
            }
            now = gh_monotonic_ns()
            while let target = timers.popExpired(now: now) {
                target.deadlineReached(now: now)
            }
            runDeferred()
        }
    }

    /// Ends `run()` after the current iteration; call on the loop's thread (post it from others).
    public func stop() { running = false }

    /// Once the loop is done for good: lets go of every handler, timer and deferred task. They may
    /// hold what holds the loop (a closed connection waits in the timer heap until its deadline,
    /// and a connection holds its worker, which holds the loop), and such a cycle would outlive
    /// the worker: memory a leak checker reports at exit. Call on the loop's thread after `run()`.
    public func releaseEverything() {
        slots.removeAll()
        timers = TimerHeap()
        deferred.removeAll()
        mailbox.withLock { $0.removeAll() }
    }

    /// Runs until `stop()` or until `nanoseconds` have passed, whichever comes first (for tests,
    /// which must not hang when what should stop the loop never happens).
    public func run(forAtMost nanoseconds: UInt64) {
        let limit = LoopStopper(self)
        limit.deadline = MonotonicClock.nanoseconds + nanoseconds
        scheduleDeadline(limit)
        run()
        limit.deadline = 0
    }

    @inline(__always)
    private func dispatch(_ token: UInt64, _ events: EventSet) {
        if token == Self.wakeToken {
            drainMailbox()
            return
        }
        let index = Int(UInt32(truncatingIfNeeded: token))
        guard index < slots.count, slots[index].generation == UInt32(token >> 32),
              let handler = slots[index].handler else { return }
        handler.handleEvents(events)
    }

    private func drainMailbox() {
        _ = gh_eventfd_drain(wakeFD)
        let messages = mailbox.withLock { queue -> [Message] in
            let taken = queue
            queue.removeAll()
            return taken
        }
        for message in messages { message(self) }
    }

    private func runDeferred() {
        while !deferred.isEmpty {
            let work = deferred
            deferred.removeAll(keepingCapacity: true)
            for item in work { item() }
        }
    }
}

/// Stops its loop when its deadline comes (`EventLoop.run(forAtMost:)`).
private final class LoopStopper: TimerTarget {
    var deadline: UInt64 = 0
    var scheduledDeadline: UInt64 = 0
    unowned let loop: EventLoop
    init(_ loop: EventLoop) { self.loop = loop }
    func deadlineReached(now: UInt64) { loop.stop() }
}
