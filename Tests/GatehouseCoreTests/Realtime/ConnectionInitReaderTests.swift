import GatehouseHTTP
import Testing
@testable import GatehouseCore

/// A masked client frame, as a browser would send it.
func clientFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, key: UInt32 = 0x1234_5678) -> [UInt8] {
    var frame: [UInt8] = []
    WebSocketFrameHeader(fin: fin, opcode: opcode, maskingKey: key, payloadLength: UInt64(payload.count)).write(into: &frame)
    var masked = payload
    masked.withUnsafeMutableBytes { WebSocketMasking.apply(key: key, offset: 0, to: $0) }
    return frame + masked
}

/// The first message of a `connection_init` tunnel, found in the held client bytes whole, byte
/// by byte and in random splits — and the bytes stay where they are, to be relayed.
@Suite struct ConnectionInitReaderTests {
    static let initText = Array(#"{"type":"connection_init","payload":{"Authorization":"Bearer abc"}}"#.utf8)

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let input: [UInt8]
        let expected: ConnectionInitReader.Reading
        /// Bytes up to the end of the first message (all held bytes otherwise).
        let messageEnds: Int?
        var maxMessageSize = 1 << 20
        var testDescription: String { name }
    }

    static let first = clientFrame(.text, initText)

    static let rows: [Row] = [
        Row(name: "one text frame", input: first, expected: .message(opcode: .text, payload: initText), messageEnds: first.count),
        Row(name: "later frames stay held after it", input: first + clientFrame(.text, Array("next".utf8)),
            expected: .message(opcode: .text, payload: initText), messageEnds: first.count),
        Row(name: "fragmented across three frames",
            input: clientFrame(.text, Array(initText[0..<10]), fin: false)
                + clientFrame(.continuation, Array(initText[10..<30]), fin: false, key: 0xA1B2_C3D4)
                + clientFrame(.continuation, Array(initText[30...]), key: 0x0102_0304),
            expected: .message(opcode: .text, payload: initText), messageEnds: nil),
        Row(name: "a ping before it is stepped over and held",
            input: clientFrame(.ping, Array("p".utf8)) + first, expected: .message(opcode: .text, payload: initText),
            messageEnds: nil),
        Row(name: "an empty text message", input: clientFrame(.text, []), expected: .message(opcode: .text, payload: []),
            messageEnds: nil),
        Row(name: "binary is reported as binary", input: clientFrame(.binary, [1, 2, 3]),
            expected: .message(opcode: .binary, payload: [1, 2, 3]), messageEnds: nil),
        Row(name: "half a frame needs more", input: Array(first.prefix(20)), expected: .needMore, messageEnds: nil),
        Row(name: "a close before any message", input: clientFrame(.close, [0x03, 0xE8]), expected: .closed, messageEnds: nil),
        Row(name: "an unmasked frame is a protocol error", input: [0x81, 0x01, 0x41],
            expected: .invalid(.protocolViolation("A client frame is not masked.")), messageEnds: nil),
        Row(name: "over max_message_size: 1009", input: clientFrame(.text, [UInt8](repeating: 0x20, count: 200)),
            expected: .invalid(.messageTooBig), messageEnds: nil, maxMessageSize: 100),
        Row(name: "fragments adding up over the limit: 1009",
            input: clientFrame(.text, [UInt8](repeating: 0x20, count: 60), fin: false)
                + clientFrame(.continuation, [UInt8](repeating: 0x20, count: 60)),
            expected: .invalid(.messageTooBig), messageEnds: nil, maxMessageSize: 100),
    ]

    /// Feeds `input` as it would arrive: growing held bytes, cut at `splits`.
    static func read(_ row: Row, splits: [Int]) -> (ConnectionInitReader.Reading, Int) {
        var reader = ConnectionInitReader(maxMessageSize: row.maxMessageSize)
        var reading = ConnectionInitReader.Reading.needMore
        for end in splits + [row.input.count] {
            reading = Array(row.input[0..<end]).withUnsafeBytes { reader.read($0) }
            if reading != .needMore { break }
        }
        return (reading, reader.scanned)
    }

    @Test(arguments: rows)
    func whole(_ row: Row) {
        let (reading, scanned) = Self.read(row, splits: [])
        #expect(reading == row.expected)
        if let end = row.messageEnds { #expect(scanned == end) }
    }

    @Test(arguments: rows)
    func byteByByte(_ row: Row) {
        #expect(Self.read(row, splits: Array(0..<row.input.count)).0 == row.expected)
    }

    @Test(arguments: rows)
    func randomSplits(_ row: Row) {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let splits = (0..<3).map { _ in Int.random(in: 0...row.input.count, using: &random) }.sorted()
            #expect(Self.read(row, splits: splits).0 == row.expected)
        }
    }
}

/// What the first message says (graphql-transport-ws and graphql-ws both open with it).
@Suite struct ConnectionInitMessageTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let opcode: WebSocketOpcode
        let text: String
        let expected: ConnectionInitMessage.Reading
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "Bearer prefix", opcode: .text,
            text: #"{"type":"connection_init","payload":{"Authorization":"Bearer t.o.k"}}"#, expected: .token(Array("t.o.k".utf8))),
        Row(name: "bearer in any case", opcode: .text,
            text: #"{"type":"connection_init","payload":{"Authorization":"bEaReR t.o.k"}}"#, expected: .token(Array("t.o.k".utf8))),
        Row(name: "bare token", opcode: .text,
            text: #"{"payload":{"Authorization":"t.o.k","other":1},"type":"connection_init"}"#, expected: .token(Array("t.o.k".utf8))),
        Row(name: "the field name is matched as configured", opcode: .text,
            text: #"{"type":"connection_init","payload":{"authorization":"t.o.k"}}"#, expected: .noToken),
        Row(name: "no payload", opcode: .text, text: #"{"type":"connection_init"}"#, expected: .noToken),
        Row(name: "empty token", opcode: .text,
            text: #"{"type":"connection_init","payload":{"Authorization":"Bearer "}}"#, expected: .noToken),
        Row(name: "a token that is no string", opcode: .text,
            text: #"{"type":"connection_init","payload":{"Authorization":42}}"#, expected: .noToken),
        Row(name: "another message first", opcode: .text, text: #"{"type":"subscribe","id":"1"}"#, expected: .notConnectionInit),
        Row(name: "not JSON", opcode: .text, text: "hello", expected: .notConnectionInit),
        Row(name: "binary", opcode: .binary, text: #"{"type":"connection_init","payload":{"Authorization":"x"}}"#,
            expected: .notConnectionInit),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) {
        #expect(ConnectionInitMessage.read(opcode: row.opcode, payload: Array(row.text.utf8), field: "Authorization") == row.expected)
    }
}
