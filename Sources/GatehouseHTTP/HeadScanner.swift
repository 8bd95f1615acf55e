import CByteScan

/// Finds the end of an HTTP head (the empty line after the last header) incrementally, and refuses
/// bytes that can never belong to a valid head as soon as they arrive.
///
/// What must hold for callers that feed bytes as they trickle in:
/// - total work is O(n): each call resumes at the position the previous call reported, and a
///   resume position never sits between a CR and its LF;
/// - every verdict depends only on the bytes before the position where it is reached, so a head
///   fed whole, byte by byte or in any split gets the same outcome.
struct HeadScanner {
    enum Outcome: Equatable {
        /// The head ends at `end` (exclusive, after the final CRLF CRLF).
        case complete(end: Int)
        /// No verdict yet; resume at `scanned` with more bytes.
        case incomplete(scanned: Int)
        case bareCR
        case bareLF
        case controlByte
        case firstLineTooLong
        case headTooLarge
    }

    /// Where the first line starts (after any skipped empty lines).
    let lineStart: Int
    /// Index of the first byte that proves the first line too long when no CR came before it
    /// (`Int.max`: no separate first-line limit).
    let firstLineCheckpoint: Int
    /// Index of the first byte beyond the largest acceptable head.
    let headLimitIndex: Int

    init(lineStart: Int, maxFirstLine: Int?, maxHeadBytes: Int) {
        self.lineStart = lineStart
        if let maxFirstLine, maxFirstLine < maxHeadBytes {
            firstLineCheckpoint = lineStart + maxFirstLine
        } else {
            firstLineCheckpoint = Int.max
        }
        let (limit, overflow) = lineStart.addingReportingOverflow(maxHeadBytes)
        headLimitIndex = overflow ? Int.max : limit
    }

    // MARK: - Scanning

    func scan(_ buffer: UnsafeRawBufferPointer, from start: Int) -> Outcome {
        let count = buffer.count
        var index = max(start, lineStart)
        let wordLimit = min(count, headLimitIndex)
        while index < count {
            // Plain line bytes are skipped a block or a word at a time up to the next control
            // byte. The skip never steps over the head limit or, on the first line, the
            // first-line checkpoint, so every verdict is the one the byte-by-byte path below
            // would reach at the same position.
            index = Self.skipLineBytes(buffer, from: index,
                                       limit: index <= firstLineCheckpoint ? min(wordLimit, firstLineCheckpoint) : wordLimit)
            if index == count { break }
            if index >= headLimitIndex { return .headTooLarge }
            if index == firstLineCheckpoint, !hasCarriageReturn(buffer, through: index) {
                return .firstLineTooLong
            }
            let byte = buffer[index]
            if ASCII.isLineByte(byte) {
                index += 1
                continue
            }
            guard byte == ASCII.cr else {
                return byte == ASCII.lf ? .bareLF : .controlByte
            }
            // A CR must be followed by LF, and CR LF CR LF ends the head; the LF that would end
            // the head must itself lie within the limit.
            if index + 1 >= headLimitIndex { return .headTooLarge }
            if index + 1 == count { return .incomplete(scanned: index) }
            if buffer[index + 1] != ASCII.lf { return .bareCR }
            if index >= lineStart + 2, buffer[index - 2] == ASCII.cr, buffer[index - 1] == ASCII.lf {
                return .complete(end: index + 2)
            }
            index += 2
        }
        return .incomplete(scanned: index)
    }

    private static let wordBytes = MemoryLayout<UInt64>.size
    private static let blockBytes = 16

    /// The index of the first control byte (see `controlBits`) from `start`, or where the
    /// whole words that fit before `limit` end. Blocks of sixteen bytes first (SSE2, in
    /// `CByteScan`, which takes long values such as tokens four blocks at a time), then words:
    /// most header lines end within a block or two, and a block's first control byte comes
    /// from the same comparison, not looked for again byte by byte.
    @inline(__always)
    private static func skipLineBytes(_ buffer: UnsafeRawBufferPointer, from start: Int, limit: Int) -> Int {
        var index = start
        if limit - index >= blockBytes {
            let span = limit - index
            let offset = gh_first_control_in_blocks(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + index, span)
            // Within the blocks: a control byte. At their end: none in them.
            if offset < span & ~(blockBytes - 1) { return index + offset }
            index += offset
        }
        while index + wordBytes <= limit {
            let bits = controlBits(ByteWord.load(buffer, at: index))
            if bits != 0 { return index + ByteWord.firstFlagged(bits) }
            index += wordBytes
        }
        return index
    }

    /// Non-zero when the word holds a control byte (below SP, HTAB included, or DEL); the lowest
    /// flagged byte is the first one (`ByteWord`). HTAB and CR go to the byte path, which
    /// accepts the one and handles the other.
    @inline(__always)
    private static func controlBits(_ word: UInt64) -> UInt64 {
        ByteWord.below(ASCII.space, in: word) | ByteWord.equal(to: ASCII.delete, in: word)
    }

    /// True when a CR occurs in `lineStart...last`: the first line ended by then.
    private func hasCarriageReturn(_ buffer: UnsafeRawBufferPointer, through last: Int) -> Bool {
        var index = lineStart
        while index <= last {
            if buffer[index] == ASCII.cr { return true }
            index += 1
        }
        return false
    }
}
