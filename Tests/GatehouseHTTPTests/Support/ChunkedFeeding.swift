@testable import GatehouseHTTP

// MARK: - Feeding a chunked decoder as a body pump would

/// What decoding a whole input produced.
struct ChunkedOutcome: Equatable, CustomStringConvertible {
    enum Ending: Equatable {
        /// The body ended; the bytes from this offset on belong to the next message.
        case end(at: Int)
        case needMore
        case invalid(String)
    }

    var body: [UInt8]
    var ending: Ending

    var description: String { "body \(String(decoding: body, as: UTF8.self).debugDescription), \(ending)" }
}

/// Feeds `input` in the pieces of `split`, keeping only the bytes the decoder did not consume,
/// and collects the body data it points at.
func decodeChunked(_ input: [UInt8], split: Split) -> ChunkedOutcome {
    var decoder = ChunkedDecoder()
    var pending: [UInt8] = []
    var offset = 0
    var body: [UInt8] = []
    var fed = 0
    for length in split.pieces(input.count) {
        pending.append(contentsOf: input[fed..<(fed + length)])
        fed += length
        pumping: while true {
            let step = pending.withUnsafeBytes { decoder.decode($0) }
            switch step {
            case .data(let range, let consumed):
                body.append(contentsOf: pending[range])
                pending.removeFirst(consumed)
                offset += consumed
            case .needMore(let consumed):
                pending.removeFirst(consumed)
                offset += consumed
                break pumping
            case .end(let consumed):
                return ChunkedOutcome(body: body, ending: .end(at: offset + consumed))
            case .invalid(let reason):
                return ChunkedOutcome(body: body, ending: .invalid(reason))
            }
        }
    }
    return ChunkedOutcome(body: body, ending: .needMore)
}

/// Decodes `input` in every split and expects the same outcome from each; returns it.
func decodeChunkedEveryWay(_ input: [UInt8]) -> (outcome: ChunkedOutcome, agreed: Bool) {
    let reference = decodeChunked(input, split: .whole)
    let agreed = Split.all.dropFirst().allSatisfy { decodeChunked(input, split: $0) == reference }
    return (reference, agreed)
}
