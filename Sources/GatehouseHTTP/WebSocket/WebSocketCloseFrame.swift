/// Builds the frames the gateway itself sends on a tunnel: a close with a code and a short
/// reason (RFC 6455 §5.5.1), unmasked towards the client and masked towards the upstream.
public enum WebSocketCloseFrame {
    /// A close reason must fit a control frame with its 2-byte code.
    public static let maxReasonBytes = Int(WebSocketFrameHeader.maxControlPayload) - 2

    public static func bytes(code: UInt16, reason: String, maskingKey: UInt32?) -> [UInt8] {
        var payload: [UInt8] = [UInt8(code >> 8), UInt8(code & 0xFF)]
        payload.append(contentsOf: reason.utf8.prefix(maxReasonBytes))
        var frame: [UInt8] = []
        let header = WebSocketFrameHeader(fin: true, opcode: .close, maskingKey: maskingKey,
                                          payloadLength: UInt64(payload.count))
        frame.reserveCapacity(header.encodedCount + payload.count)
        header.write(into: &frame)
        if let key = maskingKey {
            payload.withUnsafeMutableBytes { WebSocketMasking.apply(key: key, offset: 0, to: $0) }
        }
        frame.append(contentsOf: payload)
        return frame
    }

    /// The close code in a close frame's (unmasked) payload; nil when it carries none.
    public static func code(in payload: [UInt8]) -> UInt16? {
        guard payload.count >= 2 else { return nil }
        return UInt16(payload[0]) << 8 | UInt16(payload[1])
    }
}
