import CLinux

/// The monotonic clock read right now (a vDSO call, no syscall). On a loop's thread use the
/// loop's `now` instead: it is read once per event, and deadlines and request timings (logged
/// durations, upstream time) are taken from it.
public enum MonotonicClock {
    @inline(__always)
    public static var nanoseconds: UInt64 { gh_monotonic_ns() }
}
