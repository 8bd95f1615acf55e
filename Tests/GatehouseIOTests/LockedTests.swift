import Testing
@testable import GatehouseIO

/// The lock every shared table sits behind: what one thread does under it, another sees whole.
struct LockedTests {
    final class Counter: Sendable {
        let value = Locked(0)
    }

    @Test func incrementsFromSeveralThreadsAreNeverLost() {
        let counter = Counter()
        let threads = (0..<4).map { index in
            WorkerThread.start(name: "locked-\(index)") {
                for _ in 0..<20_000 { counter.value.withLock { $0 += 1 } }
            }
        }
        threads.forEach(WorkerThread.join)
        #expect(counter.value.withLock { $0 } == 80_000)
    }

    @Test func returnsWhatTheBodyReturnsAndKeepsWhatItChanged() {
        let names = Locked<[String]>([])
        let count = names.withLock { list -> Int in
            list.append("a")
            list.append("b")
            return list.count
        }
        #expect(count == 2)
        #expect(names.withLock { $0 } == ["a", "b"])
    }

    struct Refused: Error, Equatable {}

    @Test func aThrownErrorLeavesTheLockFree() {
        let value = Locked(1)
        #expect(throws: Refused.self) {
            try value.withLock { (number: inout Int) throws(Refused) -> Void in
                number = 2
                throw Refused()
            }
        }
        // Taken again at once: a lock left held would hang here.
        #expect(value.withLock { $0 } == 2)
    }
}
