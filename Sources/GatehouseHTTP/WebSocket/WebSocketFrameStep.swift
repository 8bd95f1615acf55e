/// One answer of `WebSocketFrameParser.parse`. `consumed` counts from the start of the buffer
/// passed to that call.
public enum WebSocketFrameStep: Sendable, Equatable {
    /// A frame header was read: its payload follows unless `payloadLength` is 0.
    case header(WebSocketFrameHeader, consumed: Int)
    /// `buffer[range]` is payload of the current frame, still masked as sent;
    /// `offset` is where it starts within the frame's payload (for unmasking).
    /// `frameEnds`: this is the frame's last payload byte.
    case payload(Range<Int>, offset: UInt64, frameEnds: Bool, consumed: Int)
    /// Every byte was used (or none were there); call again with more.
    case needMore(consumed: Int)
    /// A protocol violation (RFC 6455 §7.4.1 code 1002), or a message over the limit (1009).
    case invalid(WebSocketFrameError)
}

public enum WebSocketFrameError: Sendable, Equatable {
    case protocolViolation(String)
    case messageTooBig

    /// The close code to answer with (RFC 6455 §7.4.1).
    public var closeCode: UInt16 {
        switch self {
        case .protocolViolation: return WebSocketCloseCode.protocolError
        case .messageTooBig: return WebSocketCloseCode.messageTooBig
        }
    }
}
