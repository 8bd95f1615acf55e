/// The fixed part of one frame (RFC 6455 §5.2): what precedes its payload.
public struct WebSocketFrameHeader: Sendable, Equatable {
    public var fin: Bool
    public var opcode: WebSocketOpcode
    /// The client's masking key; nil on frames a server sends.
    public var maskingKey: UInt32?
    public var payloadLength: UInt64

    public init(fin: Bool, opcode: WebSocketOpcode, maskingKey: UInt32?, payloadLength: UInt64) {
        self.fin = fin
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payloadLength = payloadLength
    }

    /// Control frames carry at most this many payload bytes (RFC 6455 §5.5).
    public static let maxControlPayload: UInt64 = 125
    /// Lengths up to this are written in the 7-bit field itself.
    static let maxInlineLength: UInt64 = 125
    /// The 7-bit field's markers for a 16-bit and a 64-bit extended length.
    static let extended16Marker: UInt8 = 126
    static let extended64Marker: UInt8 = 127
    /// A 64-bit length must have its most significant bit clear.
    static let maxPayloadLength: UInt64 = UInt64(Int64.max)

    /// How many bytes this header takes on the wire.
    public var encodedCount: Int {
        let lengthBytes = payloadLength <= Self.maxInlineLength ? 0 : (payloadLength <= UInt64(UInt16.max) ? 2 : 8)
        return 2 + lengthBytes + (maskingKey == nil ? 0 : 4)
    }

    /// Appends the header's bytes to `output`, in the smallest length encoding (§5.2's "minimal
    /// number of bytes" rule).
    public func write(into output: inout [UInt8]) {
        output.append((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        if payloadLength <= Self.maxInlineLength {
            output.append(maskBit | UInt8(payloadLength))
        } else if payloadLength <= UInt64(UInt16.max) {
            output.append(maskBit | Self.extended16Marker)
            output.append(UInt8(payloadLength >> 8))
            output.append(UInt8(payloadLength & 0xFF))
        } else {
            output.append(maskBit | Self.extended64Marker)
            for shift in stride(from: 56, through: 0, by: -8) {
                output.append(UInt8((payloadLength >> UInt64(shift)) & 0xFF))
            }
        }
        if let key = maskingKey {
            for shift in stride(from: 24, through: 0, by: -8) {
                output.append(UInt8((key >> UInt32(shift)) & 0xFF))
            }
        }
    }
}
