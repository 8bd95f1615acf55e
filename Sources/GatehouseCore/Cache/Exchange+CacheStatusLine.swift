/// The `Cache-Status` line the cache phase put among the extra response header lines, edited in
/// place: a stored miss gains `; stored`, a stale answer replaces the miss's line with its own.
/// Byte spans, not strings: a storable miss passes here on every request.
extension Exchange {
    private static let cacheStatusLinePrefix = Array("Cache-Status: ".utf8)
    private static let lineEnd = Array("\r\n".utf8)

    /// The whole line (its CRLF included) and its value's span, if the block has one.
    private func cacheStatusLine() -> (line: Range<Int>, value: Range<Int>)? {
        let block = responseHeaderBlock
        let prefix = Self.cacheStatusLinePrefix
        var lineStart = 0
        while lineStart < block.count {
            var lineEnd = lineStart
            while lineEnd + 1 < block.count, !(block[lineEnd] == 0x0D && block[lineEnd + 1] == 0x0A) { lineEnd += 1 }
            let next = min(lineEnd + Self.lineEnd.count, block.count)
            if lineEnd - lineStart >= prefix.count, block[lineStart..<(lineStart + prefix.count)].elementsEqual(prefix) {
                return (lineStart..<next, (lineStart + prefix.count)..<lineEnd)
            }
            lineStart = next
        }
        return nil
    }

    /// Appends `parameter` (e.g. `; stored`) to the line's value; false when there is no line.
    @discardableResult
    func appendToCacheStatus(_ parameter: String) -> Bool {
        guard let found = cacheStatusLine() else { return false }
        responseHeaderBlock.insert(contentsOf: parameter.utf8, at: found.value.upperBound)
        return true
    }

    /// The miss's `Cache-Status` line gives way to another answer's own.
    func removeCacheStatusLine() {
        guard let found = cacheStatusLine() else { return }
        responseHeaderBlock.removeSubrange(found.line)
    }
}
