@testable import GatehouseHTTP

// MARK: - Feeding a multipart parser as an upload pump would

struct MultipartOutcome: Equatable, Sendable, CustomStringConvertible {
    struct Part: Equatable, Sendable {
        var headers: MultipartPartHeaders
        var data: [UInt8] = []
        var ended = false
    }

    enum Ending: Equatable, Sendable {
        case end
        case needMore
        case invalid
    }

    var parts: [Part] = []
    var ending: Ending = .needMore
    /// The most bytes the feeder had to keep for the parser at once (held-back tails).
    var mostHeldBack = 0

    var description: String { "\(parts.count) parts, \(ending)" }
}

/// Feeds `input` in the split's pieces, keeping the unconsumed tail in front of the next piece as
/// a socket reader keeps it in its input buffer.
func parseMultipart(_ input: [UInt8], boundary: String, split: Split) -> MultipartOutcome {
    var parser = MultipartParser(boundary: Array(boundary.utf8))
    var outcome = MultipartOutcome()
    var pending: [UInt8] = []
    var start = 0
    for length in split.pieces(input.count) {
        pending.append(contentsOf: input[start..<(start + length)])
        start += length
        var used = 0
        loop: while true {
            let step = pending.withUnsafeBytes { parser.parse(UnsafeRawBufferPointer(rebasing: $0[used...])) }
            switch step {
            case .partStart(let headers, let consumed):
                outcome.parts.append(.init(headers: headers))
                used += consumed
            case .data(let range, let consumed):
                outcome.parts[outcome.parts.count - 1].data.append(contentsOf: pending[(used + range.lowerBound)..<(used + range.upperBound)])
                used += consumed
            case .partEnd(let consumed):
                outcome.parts[outcome.parts.count - 1].ended = true
                used += consumed
            case .end:
                outcome.ending = .end
                return outcome
            case .needMore(let consumed):
                used += consumed
                break loop
            case .invalid:
                outcome.ending = .invalid
                return outcome
            }
            if used == pending.count { break }
        }
        pending.removeFirst(used)
        outcome.mostHeldBack = max(outcome.mostHeldBack, pending.count)
    }
    return outcome
}
