import CLinux

/// The monotonic clock read right now (a vDSO call, no syscall). The loop's `now` is read once
/// per event and is what deadlines use; durations that are logged read this at the event itself.
public enum MonotonicClock {
    @inline(__always)
    public static var nanoseconds: UInt64 { gh_monotonic_ns() }
}
