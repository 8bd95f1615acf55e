extension WebSocketFrameParser {
    enum HeaderStep {
        case more
        case header(WebSocketFrameHeader)
        case failed(WebSocketFrameError)
    }

    /// The reserved bits RSV1–3 (RFC 6455 §5.2): must be clear without a negotiated extension.
    static let reservedBits: UInt8 = 0x70
    static let finBit: UInt8 = 0x80
    static let opcodeBits: UInt8 = 0x0F
    static let maskBit: UInt8 = 0x80
    static let lengthBits: UInt8 = 0x7F
    static let maskingKeyBytes = 4

    mutating func headerStep(_ byte: UInt8) -> HeaderStep {
        switch state {
        case .firstByte:
            if byte & Self.reservedBits != 0 { return violation("A reserved bit is set without an extension.") }
            guard let opcode = WebSocketOpcode(rawValue: byte & Self.opcodeBits) else {
                return violation("The frame uses a reserved opcode.")
            }
            let fin = byte & Self.finBit != 0
            if opcode.isControl && !fin { return violation("A control frame is fragmented.") }
            if opcode == .continuation && !insideFragmentedMessage {
                return violation("A continuation frame arrived outside a fragmented message.")
            }
            if (opcode == .text || opcode == .binary) && insideFragmentedMessage {
                return violation("A new message started inside a fragmented one.")
            }
            state = .lengthByte(fin: fin, opcode: opcode)
            return .more

        case .lengthByte(let fin, let opcode):
            let masked = byte & Self.maskBit != 0
            switch (sender, masked) {
            case (.client, false): return violation("A client frame is not masked.")
            case (.server, true): return violation("A server frame is masked.")
            default: break
            }
            let length = byte & Self.lengthBits
            if opcode.isControl && UInt64(length) > WebSocketFrameHeader.maxControlPayload {
                return violation("A control frame carries more than 125 bytes.")
            }
            switch length {
            case WebSocketFrameHeader.extended16Marker:
                state = .extendedLength(fin: fin, opcode: opcode, masked: masked, wide: false, bytesLeft: 2, value: 0)
                return .more
            case WebSocketFrameHeader.extended64Marker:
                state = .extendedLength(fin: fin, opcode: opcode, masked: masked, wide: true, bytesLeft: 8, value: 0)
                return .more
            default:
                return lengthKnown(fin: fin, opcode: opcode, masked: masked, length: UInt64(length))
            }

        case .extendedLength(let fin, let opcode, let masked, let wide, let bytesLeft, let value):
            let next = value << 8 | UInt64(byte)
            if bytesLeft > 1 {
                state = .extendedLength(fin: fin, opcode: opcode, masked: masked, wide: wide, bytesLeft: bytesLeft - 1, value: next)
                return .more
            }
            if next > WebSocketFrameHeader.maxPayloadLength { return violation("The 64-bit length has its top bit set.") }
            let smallestForm = wide ? UInt64(UInt16.max) : WebSocketFrameHeader.maxInlineLength
            if next <= smallestForm { return violation("The frame length is not minimally encoded.") }
            return lengthKnown(fin: fin, opcode: opcode, masked: masked, length: next)

        case .maskingKey(let fin, let opcode, let length, let bytesLeft, let key):
            let next = key << 8 | UInt32(byte)
            if bytesLeft > 1 {
                state = .maskingKey(fin: fin, opcode: opcode, length: length, bytesLeft: bytesLeft - 1, key: next)
                return .more
            }
            return frameStarts(WebSocketFrameHeader(fin: fin, opcode: opcode, maskingKey: next, payloadLength: length))

        case .payload, .failed:
            return .more
        }
    }

    private mutating func lengthKnown(fin: Bool, opcode: WebSocketOpcode, masked: Bool, length: UInt64) -> HeaderStep {
        if masked {
            state = .maskingKey(fin: fin, opcode: opcode, length: length, bytesLeft: Self.maskingKeyBytes, key: 0)
            return .more
        }
        return frameStarts(WebSocketFrameHeader(fin: fin, opcode: opcode, maskingKey: nil, payloadLength: length))
    }

    private mutating func frameStarts(_ header: WebSocketFrameHeader) -> HeaderStep {
        if !header.opcode.isControl {
            let total = messageBytes &+ header.payloadLength
            if total > maxMessageSize || total < messageBytes {
                state = .failed(.messageTooBig)
                return .failed(.messageTooBig)
            }
            messageBytes = header.fin ? 0 : total
            insideFragmentedMessage = !header.fin
        }
        currentOpcode = header.opcode
        if header.payloadLength == 0 {
            state = .firstByte
            currentOpcode = nil
            return .header(header)
        }
        state = .payload(length: header.payloadLength, done: 0)
        return .header(header)
    }

    private mutating func violation(_ reason: String) -> HeaderStep {
        let error = WebSocketFrameError.protocolViolation(reason)
        state = .failed(error)
        return .failed(error)
    }
}
