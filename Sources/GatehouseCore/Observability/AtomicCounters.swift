import Synchronization

/// A fixed array of counters written by one worker thread and read by the admin thread.
/// Writes are a relaxed load and store (no locked instruction: there is a single writer), reads
/// are relaxed loads; a scrape may see a slightly old value, never a torn one.
public final class AtomicCounters: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Atomic<Int>>
    public let count: Int

    public init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        for i in 0..<count { (slots + i).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Single-writer add: only the owning worker thread may call it.
    @inline(__always)
    public func add(_ index: Int, _ amount: Int = 1) {
        let value = slots[index].load(ordering: .relaxed)
        slots[index].store(value &+ amount, ordering: .relaxed)
    }

    /// For counters several threads change (connection gauges): a real atomic add.
    @inline(__always)
    public func atomicAdd(_ index: Int, _ amount: Int) {
        slots[index].add(amount, ordering: .relaxed)
    }

    @inline(__always)
    public func load(_ index: Int) -> Int { slots[index].load(ordering: .relaxed) }
}
