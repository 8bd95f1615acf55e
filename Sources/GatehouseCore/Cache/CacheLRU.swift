/// Entries in least-recently-used order within a byte budget: a dictionary into slots that form
/// a doubly linked list (most recent at the head), so lookups, touches and evictions are O(1).
/// Not thread-safe; `MemoryResponseCacheStore` holds it behind a mutex.
struct CacheLRU {
    private struct Slot {
        var entry: CacheEntry?
        var previous = -1
        var next = -1
    }

    let maxBytes: Int
    private(set) var bytes = 0
    private(set) var evictions = 0
    private var slots: [Slot] = []
    private var free: [Int] = []
    private var index: [CacheKey: Int] = [:]
    private var head = -1
    private var tail = -1

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    var count: Int { index.count }

    /// The entry under `key`, made most recent; an entry past every window is dropped instead.
    mutating func get(_ key: CacheKey, now: UInt64) -> CacheEntry? {
        guard let slot = index[key], let entry = slots[slot].entry else { return nil }
        if entry.isDead(at: now) {
            remove(slot)
            return nil
        }
        unlink(slot)
        pushFront(slot)
        return entry
    }

    /// Stores `entry` (replacing any under its key), then evicts from the tail until within
    /// budget. An entry larger than the whole budget is not stored.
    mutating func put(_ entry: CacheEntry) {
        let existing = index[entry.key]
        guard entry.byteCount <= maxBytes else {
            if let existing { remove(existing) }
            return
        }
        let slot: Int
        if let existing, let replaced = slots[existing].entry {
            // A refreshed entry takes its predecessor's slot: the index already points there.
            slot = existing
            bytes -= replaced.byteCount
            slots[slot].entry = entry
            unlink(slot)
        } else if let reused = free.popLast() {
            slot = reused
            slots[slot] = Slot(entry: entry)
            index[entry.key] = slot
        } else {
            slot = slots.count
            slots.append(Slot(entry: entry))
            index[entry.key] = slot
        }
        bytes += entry.byteCount
        pushFront(slot)
        while bytes > maxBytes, tail != -1, tail != slot {
            remove(tail)
            evictions += 1
        }
    }

    mutating func delete(_ key: CacheKey) {
        if let slot = index[key] { remove(slot) }
    }

    /// Drops every entry `filter` matches; returns how many.
    mutating func purge(_ filter: CachePurgeFilter) -> Int {
        let matching = index.values.filter { slots[$0].entry.map(filter.matches) ?? false }
        for slot in matching { remove(slot) }
        return matching.count
    }

    /// Keys from most to least recent, for tests.
    var keysByRecency: [CacheKey] {
        var keys: [CacheKey] = []
        var slot = head
        while slot != -1 {
            if let entry = slots[slot].entry { keys.append(entry.key) }
            slot = slots[slot].next
        }
        return keys
    }

    // MARK: - The list

    private mutating func remove(_ slot: Int) {
        guard let entry = slots[slot].entry else { return }
        unlink(slot)
        index.removeValue(forKey: entry.key)
        bytes -= entry.byteCount
        slots[slot] = Slot()
        free.append(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let (previous, next) = (slots[slot].previous, slots[slot].next)
        if previous != -1 { slots[previous].next = next } else { head = next }
        if next != -1 { slots[next].previous = previous } else { tail = previous }
        slots[slot].previous = -1
        slots[slot].next = -1
    }

    private mutating func pushFront(_ slot: Int) {
        slots[slot].next = head
        slots[slot].previous = -1
        if head != -1 { slots[head].previous = slot }
        head = slot
        if tail == -1 { tail = slot }
    }
}
