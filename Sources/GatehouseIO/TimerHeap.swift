/// Something with a deadline on an event loop (a connection). The loop keeps at most one live
/// heap entry per target; moving a deadline later costs nothing (the entry is re-queued when it
/// comes up), moving it earlier pushes one entry.
public protocol TimerTarget: AnyObject {
    /// Monotonic nanoseconds; 0 means none.
    var deadline: UInt64 { get set }
    /// The deadline of this target's live heap entry, or 0. Owned by the loop.
    var scheduledDeadline: UInt64 { get set }
    func deadlineReached(now: UInt64)
}

/// A binary min-heap of deadlines with lazy cancellation.
struct TimerHeap {
    private struct Entry {
        var at: UInt64
        var target: any TimerTarget
    }

    private var entries: [Entry] = []

    var nextDeadline: UInt64? { entries.first?.at }

    mutating func schedule(_ target: any TimerTarget) {
        let deadline = target.deadline
        guard deadline != 0 else { return }
        if target.scheduledDeadline != 0 && target.scheduledDeadline <= deadline { return }
        target.scheduledDeadline = deadline
        push(Entry(at: deadline, target: target))
    }

    /// The next target whose deadline is at or before `now`, with its deadline cleared; nil when
    /// none is due. The caller fires it outside of any access to the heap, because firing may
    /// schedule new deadlines.
    mutating func popExpired(now: UInt64) -> (any TimerTarget)? {
        while let first = entries.first, first.at <= now {
            let entry = pop()
            let target = entry.target
            guard target.scheduledDeadline == entry.at else { continue }  // superseded by an earlier entry
            target.scheduledDeadline = 0
            let deadline = target.deadline
            if deadline == 0 { continue }
            if deadline <= now {
                target.deadline = 0
                return target
            }
            schedule(target)
        }
        return nil
    }

    var count: Int { entries.count }

    // MARK: - Heap

    private mutating func push(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if entries[parent].at <= entries[child].at { break }
            entries.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func pop() -> Entry {
        let top = entries[0]
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var parent = 0
            let count = entries.count
            while true {
                let left = 2 * parent + 1
                if left >= count { break }
                let right = left + 1
                let child = right < count && entries[right].at < entries[left].at ? right : left
                if entries[parent].at <= entries[child].at { break }
                entries.swapAt(parent, child)
                parent = child
            }
        }
        return top
    }
}
