import GatehouseIO

/// Collapsing: the first miss for a key leads (it goes upstream); later misses for the same key
/// follow — they wait for the leader's answer instead of making their own request. Process-wide
/// like the memory store, so followers on other workers wait too; each is answered on its own
/// loop through the loop's mailbox.
final class CacheFills: Sendable {
    /// A follower: its loop, and the answer the waiting exchange holds.
    final class Follower: @unchecked Sendable {
        // Touched only on `loop`'s thread: created there, completed through its mailbox.
        let loop: EventLoop
        let answer: PendingAnswer
        let deliver: (CacheEntry?) -> Void

        init(loop: EventLoop, answer: PendingAnswer, deliver: @escaping (CacheEntry?) -> Void) {
            self.loop = loop
            self.answer = answer
            self.deliver = deliver
        }
    }

    enum Role {
        case leader
        case follower
    }

    private let fills = Locked<[CacheKey: [Follower]]>([:])

    init() {}

    /// Leads when no fill for `key` is running; otherwise `follower` joins it.
    func join(_ key: CacheKey, follower: () -> Follower) -> Role {
        fills.withLock { map in
            if map[key] == nil {
                map[key] = []
                return .leader
            }
            map[key]!.append(follower())
            return .follower
        }
    }

    /// A follower that stopped waiting (client gone, deadline) leaves the fill.
    func leave(_ key: CacheKey, _ follower: Follower) {
        fills.withLock { map in map[key]?.removeAll { $0 === follower } }
    }

    /// The leader's answer: the entry stored, or nil when the response was not stored (the
    /// followers then go upstream themselves).
    func finish(_ key: CacheKey, with entry: CacheEntry?) {
        let followers = fills.withLock { map in map.removeValue(forKey: key) } ?? []
        for follower in followers {
            // A follower that stopped waiting was cancelled on its own loop: nothing to deliver.
            follower.loop.post { _ in if follower.answer.isWaiting { follower.deliver(entry) } }
        }
    }

    var inFlight: Int { fills.withLock { $0.count } }
}
