/// What changed between two endpoint lists, by label: the ones to keep (with their pools and
/// state), to add, and to retire (drained: their lent connections finish their requests).
struct EndpointListDiff: Equatable {
    var kept: [String]
    var added: [String]
    var removed: [String]

    init(old: [String], new: [String]) {
        let oldSet = Set(old)
        let newSet = Set(new)
        kept = new.filter { oldSet.contains($0) }
        added = new.filter { !oldSet.contains($0) }
        removed = old.filter { !newSet.contains($0) }
    }

    init(kept: [String], added: [String], removed: [String]) {
        self.kept = kept
        self.added = added
        self.removed = removed
    }

    var isEmpty: Bool { added.isEmpty && removed.isEmpty }
}
