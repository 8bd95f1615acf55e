import Testing
@testable import GatehouseIO

private final class Target: TimerTarget {
    var deadline: UInt64 = 0
    var scheduledDeadline: UInt64 = 0
    let name: String
    init(_ name: String) { self.name = name }
    func deadlineReached(now: UInt64) {}
}

/// Deadlines fire in order; moving one later or clearing it never fires it early.
struct TimerHeapTests {
    private func due(_ heap: inout TimerHeap, _ now: UInt64) -> [String] {
        var fired: [String] = []
        while let target = heap.popExpired(now: now) { fired.append((target as! Target).name) }
        return fired
    }

    @Test func firesInDeadlineOrder() {
        var heap = TimerHeap()
        let a = Target("a"), b = Target("b"), c = Target("c")
        for (target, at) in [(a, UInt64(30)), (b, 10), (c, 20)] {
            target.deadline = at
            heap.schedule(target)
        }
        #expect(due(&heap, 5) == [])
        #expect(due(&heap, 25) == ["b", "c"])
        #expect(due(&heap, 100) == ["a"])
    }

    @Test func laterDeadlineIsRequeuedNotFired() {
        var heap = TimerHeap()
        let a = Target("a")
        a.deadline = 10
        heap.schedule(a)
        a.deadline = 50  // moved later without touching the heap
        #expect(due(&heap, 20) == [])
        #expect(due(&heap, 60) == ["a"])
    }

    @Test func clearedDeadlineNeverFires() {
        var heap = TimerHeap()
        let a = Target("a")
        a.deadline = 10
        heap.schedule(a)
        a.deadline = 0
        #expect(due(&heap, 100) == [])
    }

    @Test func earlierDeadlineFiresOnce() {
        var heap = TimerHeap()
        let a = Target("a")
        a.deadline = 50
        heap.schedule(a)
        a.deadline = 10
        heap.schedule(a)
        #expect(due(&heap, 20) == ["a"])
        #expect(due(&heap, 100) == [])
    }
}
