import CLinux
import Synchronization

/// A value behind a lock: the standard library's `Mutex`, plus what ThreadSanitizer needs to
/// follow it. On Linux a contended `Mutex` is taken in the kernel (a priority-inheriting futex),
/// where TSan sees no acquire, so it reports every access behind the lock from a second thread
/// as a race. In the `make test-tsan` build (GATEHOUSE_TSAN) each critical section tells TSan
/// itself, on an address of its own; in every other build this is `Mutex` and nothing more.
public struct Locked<Value: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: Mutex<Value>
    #if GATEHOUSE_TSAN
    /// What TSan synchronizes on: one byte no Swift code reads or writes, so annotating it is no
    /// access of its own (the value's address would be one, made before the acquire).
    @usableFromInline let tsanTag = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
    #endif

    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    #if GATEHOUSE_TSAN
    deinit { tsanTag.deallocate() }
    #endif

    /// Runs `body` with the value, the lock held.
    @inlinable @inline(__always)
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if GATEHOUSE_TSAN
        let tag = tsanTag
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            __tsan_acquire(tag)
            defer { __tsan_release(tag) }
            return try body(&value)
        }
        #else
        return try mutex.withLock(body)
        #endif
    }
}

// Sendable as `Mutex` is: the lock is what makes it so (the TSan tag is only ever handed to TSan).
extension Locked: @unchecked Sendable where Value: ~Copyable {}
