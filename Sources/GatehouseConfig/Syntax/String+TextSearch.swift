/// Substring search without the string-processing module, which the product does not link
/// (Package.swift, `leanRuntime`). Compares Unicode scalars, which is exact for the ASCII
/// separators the config syntax looks for.
extension StringProtocol {
    /// The first occurrence of `needle`, or nil.
    public func range(ofText needle: String) -> Range<Index>? {
        let pattern = Array(needle.unicodeScalars)
        guard let first = pattern.first else { return nil }
        var start = startIndex
        while let candidate = self[start...].unicodeScalars.firstIndex(of: first) {
            var probe = candidate
            var matched = 0
            while matched < pattern.count, probe < endIndex, unicodeScalars[probe] == pattern[matched] {
                probe = unicodeScalars.index(after: probe)
                matched += 1
            }
            if matched == pattern.count { return candidate..<probe }
            start = unicodeScalars.index(after: candidate)
        }
        return nil
    }

    public func contains(text needle: String) -> Bool { range(ofText: needle) != nil }
}
