@testable import GatehouseHTTP

// MARK: - Feeding a frame parser as a tunnel would

/// Everything a parser reported for one input: the frames (header and unmasked payload) and how
/// the input ended.
struct WebSocketOutcome: Equatable, CustomStringConvertible {
    struct Frame: Equatable, Sendable {
        var fin: Bool
        var opcode: WebSocketOpcode
        var payload: [UInt8]
    }

    enum Ending: Equatable {
        case betweenFrames
        case insideFrame
        case invalid(WebSocketFrameError)
    }

    var frames: [Frame] = []
    var ending: Ending = .betweenFrames

    var description: String { "\(frames.count) frames, \(ending)" }
}

func parseFrames(_ input: [UInt8], sender: WebSocketFrameParser.Sender, maxMessageSize: UInt64 = 1 << 20,
                 split: Split) -> WebSocketOutcome {
    var parser = WebSocketFrameParser(sender: sender, maxMessageSize: maxMessageSize)
    var outcome = WebSocketOutcome()
    var key: UInt32 = 0
    var start = 0
    for length in split.pieces(input.count) {
        var piece = Array(input[start..<(start + length)])
        start += length
        var used = 0
        while used < piece.count {
            let step = piece.withUnsafeMutableBytes { whole -> WebSocketFrameStep in
                parser.parse(UnsafeRawBufferPointer(rebasing: whole[used...]))
            }
            switch step {
            case .header(let header, let consumed):
                outcome.frames.append(.init(fin: header.fin, opcode: header.opcode, payload: []))
                key = header.maskingKey ?? 0
                used += consumed
            case .payload(let range, let offset, _, let consumed):
                piece.withUnsafeMutableBytes { whole in
                    let part = UnsafeMutableRawBufferPointer(rebasing: whole[(used + range.lowerBound)..<(used + range.upperBound)])
                    WebSocketMasking.apply(key: key, offset: offset, to: part)
                    outcome.frames[outcome.frames.count - 1].payload.append(contentsOf: part)
                }
                used += consumed
            case .needMore(let consumed):
                used += consumed
                if consumed == 0 { used = piece.count }
            case .invalid(let error):
                outcome.ending = .invalid(error)
                return outcome
            }
        }
    }
    outcome.ending = parser.isBetweenFrames ? .betweenFrames : .insideFrame
    return outcome
}

/// A frame's bytes as a peer would send it.
func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, key: UInt32? = nil) -> [UInt8] {
    var output: [UInt8] = []
    WebSocketFrameHeader(fin: fin, opcode: opcode, maskingKey: key, payloadLength: UInt64(payload.count)).write(into: &output)
    var body = payload
    if let key { body.withUnsafeMutableBytes { WebSocketMasking.apply(key: key, offset: 0, to: $0) } }
    output.append(contentsOf: body)
    return output
}
