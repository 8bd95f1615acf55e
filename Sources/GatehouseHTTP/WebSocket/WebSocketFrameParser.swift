/// Incremental reader of WebSocket frames (RFC 6455 §5) for one direction of a connection. Like
/// `ChunkedDecoder` it copies no payload: it reports where payload lies in the caller's buffer and
/// keeps only framing state, so it answers the same when fed whole, byte by byte or in any split.
///
/// It checks what a relay must trust to close cleanly between frames: the masking rule for the
/// direction, reserved bits (no extension is negotiated, so all must be clear), reserved opcodes,
/// control frames unfragmented and at most 125 bytes, continuation frames only inside a
/// fragmented message, a data frame never inside one, minimal length encodings, and the size of a
/// whole message (the sum of its fragments) against `maxMessageSize`.
public struct WebSocketFrameParser: Sendable {
    /// Which side sent the bytes: a client masks every frame, a server none (RFC 6455 §5.1).
    public enum Sender: Sendable {
        case client
        case server
    }

    enum State: Sendable {
        case firstByte
        case lengthByte(fin: Bool, opcode: WebSocketOpcode)
        case extendedLength(fin: Bool, opcode: WebSocketOpcode, masked: Bool, wide: Bool, bytesLeft: Int, value: UInt64)
        case maskingKey(fin: Bool, opcode: WebSocketOpcode, length: UInt64, bytesLeft: Int, key: UInt32)
        case payload(length: UInt64, done: UInt64)
        case failed(WebSocketFrameError)
    }

    public let sender: Sender
    public let maxMessageSize: UInt64
    var state: State = .firstByte
    /// Payload bytes of the data message in progress, counted across its fragments.
    var messageBytes: UInt64 = 0
    /// A text or binary frame without FIN has started a message not yet finished.
    public internal(set) var insideFragmentedMessage = false
    /// The opcode of the frame whose payload is being read; nil between frames.
    public internal(set) var currentOpcode: WebSocketOpcode?

    public init(sender: Sender, maxMessageSize: UInt64) {
        self.sender = sender
        self.maxMessageSize = maxMessageSize
    }

    /// True between frames: a close frame written now cannot cut a frame of this direction.
    /// A parser that failed stopped at the start of the bad frame's header (only a header can
    /// fail), none of which was passed on, so it is between frames too: the peer on the other
    /// side still gets its close frame.
    public var isBetweenFrames: Bool {
        switch state {
        case .firstByte, .failed: return true
        default: return false
        }
    }

    /// True between messages: no fragmented message is open and no frame is half read.
    public var isBetweenMessages: Bool { isBetweenFrames && !insideFragmentedMessage }

    // MARK: - Parsing

    public mutating func parse(_ buffer: UnsafeRawBufferPointer) -> WebSocketFrameStep {
        var index = 0
        let count = buffer.count
        while index < count {
            switch state {
            case .failed(let error):
                return .invalid(error)
            case .payload(let length, let done):
                let take = UInt64(min(UInt64(count - index), length - done))
                let end = index + Int(take)
                let ends = done + take == length
                state = ends ? .firstByte : .payload(length: length, done: done + take)
                if ends { currentOpcode = nil }
                return .payload(index..<end, offset: done, frameEnds: ends, consumed: end)
            default:
                let byte = buffer[index]
                index += 1
                switch headerStep(byte) {
                case .more:
                    continue
                case .header(let header):
                    return .header(header, consumed: index)
                case .failed(let error):
                    state = .failed(error)
                    return .invalid(error)
                }
            }
        }
        if case .failed(let error) = state { return .invalid(error) }
        return .needMore(consumed: index)
    }
}
