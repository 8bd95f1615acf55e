import Glibc

/// The `Cache-Status` line the cache phase put among the extra response header lines, edited in
/// place: a stored miss gains `; stored`, a stale answer replaces the miss's line with its own.
/// Byte spans, not strings: a storable miss passes here on every request.
extension Exchange {
    private static let cacheStatusLinePrefix: StaticString = "Cache-Status: "

    /// The whole line (its CRLF included) and its value's span, if the block has one.
    private func cacheStatusLine() -> (line: Range<Int>, value: Range<Int>)? {
        let prefix = Self.cacheStatusLinePrefix
        return responseHeaderBlock.withUnsafeBytes { block -> (line: Range<Int>, value: Range<Int>)? in
            var lineStart = 0
            while lineStart < block.count {
                // Lines end in CRLF, and a value holds no CR: the next CR ends this line.
                let rest = UnsafeRawBufferPointer(rebasing: block[lineStart...])
                let carriageReturn = memchr(rest.baseAddress!, 0x0D, rest.count)
                let lineEnd = carriageReturn.map { UnsafeRawPointer($0) - block.baseAddress! } ?? block.count
                let next = min(lineEnd + 2, block.count)
                if lineEnd - lineStart >= prefix.utf8CodeUnitCount,
                   memcmp(block.baseAddress! + lineStart, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0 {
                    return (lineStart..<next, (lineStart + prefix.utf8CodeUnitCount)..<lineEnd)
                }
                lineStart = next
            }
            return nil
        }
    }

    /// Appends `parameter` (e.g. `; stored`) to the line's value; false when there is no line.
    @discardableResult
    func appendToCacheStatus(_ parameter: StaticString) -> Bool {
        guard let found = cacheStatusLine() else { return false }
        parameter.withUTF8Buffer { responseHeaderBlock.insert(contentsOf: $0, at: found.value.upperBound) }
        return true
    }

    /// The miss's `Cache-Status` line gives way to another answer's own.
    func removeCacheStatusLine() {
        guard let found = cacheStatusLine() else { return }
        responseHeaderBlock.removeSubrange(found.line)
    }
}
