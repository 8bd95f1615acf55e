import GatehouseHTTP

/// Finds the client's first message on a tunnel whose token arrives in `connection_init`,
/// without taking its bytes away: they stay in the connection's input and go upstream as sent
/// (re-masked like every client frame) once the token is verified. Fed the whole held input each
/// time, it resumes where it stopped, so it answers the same whether frames arrive whole, byte
/// by byte or in any split. Control frames before the message (a ping) are stepped over and held
/// with it; a fragmented message is reassembled; `maxMessageSize` holds as on an open tunnel.
struct ConnectionInitReader {
    enum Reading: Equatable {
        case needMore
        /// The first data message, unmasked and reassembled from its fragments.
        case message(opcode: WebSocketOpcode, payload: [UInt8])
        /// The client sent a close frame before any message.
        case closed
        /// A protocol violation (1002) or a message over `max_message_size` (1009).
        case invalid(WebSocketFrameError)
    }

    /// What the frame being read is to the reader.
    private enum Frame {
        case control
        case data(fin: Bool, maskingKey: UInt32)
    }

    private var parser: WebSocketFrameParser
    /// How many bytes of the held input have been looked at; after a `.message` this is where the
    /// message ends, so everything up to it is the `connection_init` the upstream will get.
    private(set) var scanned = 0
    private var frame: Frame = .control
    private var opcode: WebSocketOpcode?
    private var payload: [UInt8] = []

    init(maxMessageSize: Int) {
        parser = WebSocketFrameParser(sender: .client, maxMessageSize: UInt64(maxMessageSize))
    }

    /// `held` is the connection's input from its first byte after the handshake.
    mutating func read(_ held: UnsafeRawBufferPointer) -> Reading {
        while scanned < held.count {
            switch parser.parse(UnsafeRawBufferPointer(rebasing: held[scanned...])) {
            case .header(let header, let consumed):
                scanned += consumed
                if header.opcode == .close { return .closed }
                if header.opcode.isControl {
                    frame = .control
                    continue
                }
                if opcode == nil { opcode = header.opcode }
                frame = .data(fin: header.fin, maskingKey: header.maskingKey ?? 0)
                if header.payloadLength == 0, header.fin { return finished() }
            case .payload(let range, let offset, let frameEnds, let consumed):
                if case .data(let fin, let key) = frame {
                    let start = payload.count
                    payload.append(contentsOf: UnsafeRawBufferPointer(rebasing: held[(scanned + range.lowerBound)..<(scanned + range.upperBound)]))
                    payload.withUnsafeMutableBytes { bytes in
                        WebSocketMasking.apply(key: key, offset: offset, to: UnsafeMutableRawBufferPointer(rebasing: bytes[start...]))
                    }
                    scanned += consumed
                    if frameEnds, fin { return finished() }
                } else {
                    scanned += consumed
                }
            case .needMore(let consumed):
                scanned += consumed
                return .needMore
            case .invalid(let error):
                return .invalid(error)
            }
        }
        return .needMore
    }

    private func finished() -> Reading {
        .message(opcode: opcode ?? .text, payload: payload)
    }
}
