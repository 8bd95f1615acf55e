import Testing
@testable import GatehouseHTTP

/// One row of the framing contract: bytes from one side, what a relay must see.
struct WebSocketCase: Sendable, CustomTestStringConvertible {
    enum Verdict: Sendable, Equatable {
        /// The frames (fin, opcode, unmasked payload) and whether the input ends between frames.
        case frames([WebSocketOutcome.Frame], complete: Bool)
        case protocolError
        case tooBig
    }

    let name: String
    let sender: WebSocketFrameParser.Sender
    let input: [UInt8]
    let verdict: Verdict
    var maxMessageSize: UInt64 = 1 << 20

    var testDescription: String { name }
}

private let key: UInt32 = 0x3712_81A5
private let hello = bytes("Hello")

private func row(_ name: String, _ sender: WebSocketFrameParser.Sender, _ input: [UInt8], _ verdict: WebSocketCase.Verdict,
                 maxMessageSize: UInt64 = 1 << 20) -> WebSocketCase {
    WebSocketCase(name: name, sender: sender, input: input, verdict: verdict, maxMessageSize: maxMessageSize)
}

private func data(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) -> WebSocketOutcome.Frame {
    .init(fin: fin, opcode: opcode, payload: payload)
}

@Suite("WebSocket frames (RFC 6455 §5)")
struct WebSocketFrameParserTests {
    static let cases: [WebSocketCase] = [
        // RFC 6455 §5.7 examples
        row("unmasked text from a server", .server, [0x81, 0x05] + hello, .frames([data(.text, hello)], complete: true)),
        row("masked text from a client", .client, [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58],
            .frames([data(.text, hello)], complete: true)),
        row("fragmented text", .server, [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F],
            .frames([data(.text, bytes("Hel"), fin: false), data(.continuation, bytes("lo"))], complete: true)),
        row("ping inside a fragmented message", .server,
            frame(.text, bytes("a"), fin: false) + frame(.ping, bytes("p")) + frame(.continuation, bytes("b")),
            .frames([data(.text, bytes("a"), fin: false), data(.ping, bytes("p")), data(.continuation, bytes("b"))], complete: true)),
        row("256-byte binary (16-bit length)", .server, frame(.binary, [UInt8](repeating: 7, count: 256)),
            .frames([data(.binary, [UInt8](repeating: 7, count: 256))], complete: true)),
        row("64 KiB binary (64-bit length), masked", .client, frame(.binary, [UInt8](repeating: 9, count: 65_536), key: key),
            .frames([data(.binary, [UInt8](repeating: 9, count: 65_536))], complete: true)),
        row("empty text", .client, frame(.text, [], key: key), .frames([data(.text, [])], complete: true)),
        row("close with a code", .client, frame(.close, [0x03, 0xE8], key: key), .frames([data(.close, [0x03, 0xE8])], complete: true)),
        row("two frames back to back", .client, frame(.text, bytes("a"), key: key) + frame(.binary, bytes("bc"), key: key),
            .frames([data(.text, bytes("a")), data(.binary, bytes("bc"))], complete: true)),

        // Partial input
        row("half a header", .server, [0x81], .frames([], complete: false)),
        row("inside a payload", .server, [0x81, 0x05, 0x48], .frames([data(.text, bytes("H"))], complete: false)),
        row("inside a masking key", .client, [0x81, 0x85, 0x37, 0xFA], .frames([], complete: false)),

        // Masking rule per direction
        row("unmasked client frame", .client, frame(.text, hello), .protocolError),
        row("masked server frame", .server, frame(.text, hello, key: key), .protocolError),

        // Header rules
        row("reserved bit set", .server, [0xC1, 0x00], .protocolError),
        row("reserved opcode 3", .server, [0x83, 0x00], .protocolError),
        row("reserved opcode 0xB", .server, [0x8B, 0x00], .protocolError),
        row("fragmented ping", .server, [0x09, 0x00], .protocolError),
        row("ping over 125 bytes", .server, [0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126), .protocolError),
        row("continuation without a message", .server, [0x80, 0x00], .protocolError),
        row("text inside a fragmented message", .server, frame(.text, bytes("a"), fin: false) + frame(.text, bytes("b")), .protocolError),
        row("16-bit length under 126", .server, [0x82, 0x7E, 0x00, 0x05] + hello, .protocolError),
        row("64-bit length under 65536", .server, [0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0x01, 0x00], .protocolError),
        row("64-bit length with the top bit", .server, [0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], .protocolError),

        // Message size (max_message_size)
        row("message at the limit", .server, frame(.binary, [UInt8](repeating: 1, count: 16)),
            .frames([data(.binary, [UInt8](repeating: 1, count: 16))], complete: true), maxMessageSize: 16),
        row("frame over the limit", .server, frame(.binary, [UInt8](repeating: 1, count: 17)), .tooBig, maxMessageSize: 16),
        row("fragments summing over the limit", .server,
            frame(.binary, [UInt8](repeating: 1, count: 10), fin: false) + frame(.continuation, [UInt8](repeating: 1, count: 10)),
            .tooBig, maxMessageSize: 16),
        row("limit counts each message anew", .server,
            frame(.binary, [UInt8](repeating: 1, count: 10)) + frame(.binary, [UInt8](repeating: 1, count: 10)),
            .frames([data(.binary, [UInt8](repeating: 1, count: 10)), data(.binary, [UInt8](repeating: 1, count: 10))], complete: true),
            maxMessageSize: 16),
    ]

    @Test(arguments: cases)
    func verdict(_ row: WebSocketCase) {
        var outcomes: [WebSocketOutcome] = []
        for split in Split.all {
            outcomes.append(parseFrames(row.input, sender: row.sender, maxMessageSize: row.maxMessageSize, split: split))
        }
        #expect(outcomes.allSatisfy { $0 == outcomes[0] }, "whole, byte-by-byte and random splits must agree")
        let outcome = outcomes[0]
        switch row.verdict {
        case .frames(let frames, let complete):
            #expect(outcome.frames == frames)
            #expect(outcome.ending == (complete ? .betweenFrames : .insideFrame))
        case .protocolError:
            guard case .invalid(.protocolViolation) = outcome.ending else {
                Issue.record("expected a protocol error, got \(outcome)")
                return
            }
        case .tooBig:
            #expect(outcome.ending == .invalid(.messageTooBig))
        }
    }

    @Test func closeCodesFollowTheErrors() {
        #expect(WebSocketFrameError.messageTooBig.closeCode == 1009)
        #expect(WebSocketFrameError.protocolViolation("x").closeCode == 1002)
    }

    @Test func closeFrameRoundTrips() {
        let masked = WebSocketCloseFrame.bytes(code: WebSocketCloseCode.forbidden, reason: "token expired", maskingKey: key)
        let outcome = parseFrames(masked, sender: .client, split: .whole)
        #expect(outcome.frames.count == 1)
        #expect(outcome.frames[0].opcode == .close)
        #expect(WebSocketCloseFrame.code(in: outcome.frames[0].payload) == 4403)
        #expect(Array(outcome.frames[0].payload.dropFirst(2)) == bytes("token expired"))
    }

    @Test func closeReasonIsCutToFitAControlFrame() {
        let long = String(repeating: "x", count: 400)
        let frameBytes = WebSocketCloseFrame.bytes(code: 1001, reason: long, maskingKey: nil)
        #expect(frameBytes.count == 2 + Int(WebSocketFrameHeader.maxControlPayload))
        #expect(parseFrames(frameBytes, sender: .server, split: .whole).ending == .betweenFrames)
    }

    @Test func remaskingWithXorOfKeysEqualsUnmaskThenMask() {
        var payload = bytes("graphql-transport-ws message")
        let original = payload
        let newKey: UInt32 = 0xDEAD_BEEF
        payload.withUnsafeMutableBytes { WebSocketMasking.apply(key: key, offset: 0, to: $0) }
        payload.withUnsafeMutableBytes { WebSocketMasking.apply(key: key ^ newKey, offset: 0, to: $0) }
        payload.withUnsafeMutableBytes { WebSocketMasking.apply(key: newKey, offset: 0, to: $0) }
        #expect(payload == original)
    }

    @Test func betweenFramesAndMessagesAreReported() {
        var parser = WebSocketFrameParser(sender: .server, maxMessageSize: 1 << 20)
        #expect(parser.isBetweenMessages)
        let first = frame(.text, bytes("ab"), fin: false)
        first.withUnsafeBytes { buffer in
            _ = parser.parse(buffer)
            #expect(!parser.isBetweenFrames)
            _ = parser.parse(UnsafeRawBufferPointer(rebasing: buffer[2...]))
        }
        #expect(parser.isBetweenFrames)
        #expect(!parser.isBetweenMessages)
    }

    /// Only a header can fail, and none of it was passed on: the other side may still be sent a
    /// close frame without cutting a frame of this direction.
    @Test func aFailedParserIsBetweenFrames() {
        var parser = WebSocketFrameParser(sender: .server, maxMessageSize: 1 << 20)
        let masked = frame(.text, bytes("hi"), key: 0x0102_0304)  // a server must not mask
        masked.withUnsafeBytes { buffer in
            guard case .invalid = parser.parse(buffer) else {
                Issue.record("a masked server frame parsed")
                return
            }
        }
        #expect(parser.isBetweenFrames)
    }
}
