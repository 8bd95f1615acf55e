import CLinux
import Glibc

/// Wakes a thread that sleeps outside an event loop: `ring` from any thread ends the owner's
/// current or next `sleep` early. Lets a thread with nothing due sleep until something changes
/// instead of waking on a short period to look.
public final class Doorbell: @unchecked Sendable {
    private let fd: Int32

    public init() {
        fd = gh_eventfd()
        precondition(fd >= 0, "eventfd failed: \(Syscalls.errorText(errno))")
    }

    deinit { Syscalls.close(fd) }

    public func ring() { _ = gh_eventfd_signal(fd) }

    /// Sleeps until rung or until `nanoseconds` have passed (nil: until rung). Returns whether it
    /// was rung; a ring that came before the call counts.
    @discardableResult
    public func sleep(nanoseconds: UInt64?) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let timeoutMs = nanoseconds.map { Int32(min(($0 + 999_999) / 1_000_000, UInt64(Int32.max))) } ?? -1
        let ready = poll(&entry, 1, timeoutMs)  // EINTR reads as not rung: the caller looks again
        guard ready > 0 else { return false }
        _ = gh_eventfd_drain(fd)
        return true
    }
}
