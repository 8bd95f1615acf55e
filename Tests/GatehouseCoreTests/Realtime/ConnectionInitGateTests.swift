import GatehouseHTTP
import Testing
@testable import GatehouseCore

/// The `connection_init` wait as table rows on a manual clock (seconds for readability):
/// init_timeout 10 s, upstream (route) timeout 5 s, the 101 written at 0.
@Suite struct ConnectionInitGateTests {
    static let second: UInt64 = 1_000_000_000
    static let goodInit = ConnectionInitReader.Reading.message(
        opcode: .text, payload: Array(#"{"type":"connection_init","payload":{"Authorization":"Bearer tok"}}"#.utf8))
    static let subscribeFirst = ConnectionInitReader.Reading.message(
        opcode: .text, payload: Array(#"{"type":"subscribe","id":"1","payload":{}}"#.utf8))

    static func gate(subprotocol: String? = "graphql-transport-ws") -> ConnectionInitGate {
        ConnectionInitGate(field: "Authorization", subprotocol: subprotocol, now: 0, initTimeoutNanos: 10 * second,
                           upstreamTimeoutNanos: 5 * second)
    }

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        var subprotocol: String? = "graphql-transport-ws"
        let events: [ConnectionInitGate.Event]
        /// The action of the last event.
        let action: ConnectionInitGate.Action
        let state: ConnectionInitGate.State
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "waiting: the timer is the init timeout", events: [.read(.needMore)], action: .none,
            state: .awaitingMessage(deadline: 10 * second)),
        Row(name: "an early timer does nothing", events: [.timerFired(now: 9 * second)], action: .none,
            state: .awaitingMessage(deadline: 10 * second)),
        Row(name: "no init within init_timeout: 4408", events: [.timerFired(now: 10 * second)],
            action: .close(code: 4408, reason: "Connection initialisation timeout"), state: .refused(code: 4408)),
        Row(name: "a token in connection_init is verified", events: [.read(goodInit)], action: .verify(Array("tok".utf8)),
            state: .verifying),
        Row(name: "no init timeout while verifying (a key fetch may run)", events: [.read(goodInit), .timerFired(now: 11 * second)],
            action: .none, state: .verifying),
        Row(name: "invalid token: 4401", events: [.read(goodInit), .tokenRefused(.unauthenticated)],
            action: .close(code: 4401, reason: "invalid token"), state: .refused(code: 4401)),
        Row(name: "refused claims: 4403", events: [.read(goodInit), .tokenRefused(.forbidden)],
            action: .close(code: 4403, reason: "forbidden"), state: .refused(code: 4403)),
        Row(name: "keys not fetched yet: 1013", events: [.read(goodInit), .tokenRefused(.unavailable)],
            action: .close(code: 1013, reason: "identity keys not available yet"), state: .refused(code: 1013)),
        Row(name: "passed: the upstream opens within the route timeout",
            events: [.read(goodInit), .tokenPassed(now: 2 * second)], action: .openUpstream,
            state: .openingUpstream(deadline: 7 * second)),
        Row(name: "the upstream's 101: relay", events: [.read(goodInit), .tokenPassed(now: 2 * second), .upstreamOpened],
            action: .relay, state: .passed),
        Row(name: "the upstream fails: 1011", events: [.read(goodInit), .tokenPassed(now: 2 * second), .upstreamFailed],
            action: .close(code: 1011, reason: "upstream failed"), state: .refused(code: 1011)),
        Row(name: "the upstream is silent: 1011",
            events: [.read(goodInit), .tokenPassed(now: 2 * second), .timerFired(now: 7 * second)],
            action: .close(code: 1011, reason: "upstream did not answer in time"), state: .refused(code: 1011)),
        Row(name: "graphql-transport-ws: another message first is 4400", events: [.read(subscribeFirst)],
            action: .close(code: 4400, reason: "the first message must be connection_init"), state: .refused(code: 4400)),
        Row(name: "graphql-ws: another message first is 4401", subprotocol: "graphql-ws", events: [.read(subscribeFirst)],
            action: .close(code: 4401, reason: "the first message must be connection_init"), state: .refused(code: 4401)),
        Row(name: "connection_init without the token: 4401",
            events: [.read(.message(opcode: .text, payload: Array(#"{"type":"connection_init","payload":{}}"#.utf8)))],
            action: .close(code: 4401, reason: "connection_init carries no token"), state: .refused(code: 4401)),
        Row(name: "a message over max_message_size: 1009", events: [.read(.invalid(.messageTooBig))],
            action: .close(code: 1009, reason: "message too big"), state: .refused(code: 1009)),
        Row(name: "the client closes first: 1000", events: [.read(.closed)],
            action: .close(code: 1000, reason: "closed before connection_init"), state: .refused(code: 1000)),
        Row(name: "nothing after a refusal", events: [.timerFired(now: 10 * second), .read(goodInit)], action: .none,
            state: .refused(code: 4408)),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) {
        var gate = Self.gate(subprotocol: row.subprotocol)
        var action = ConnectionInitGate.Action.none
        for event in row.events { action = gate.handle(event) }
        #expect(action == row.action)
        #expect(gate.state == row.state)
    }

    @Test func deadlineFollowsTheState() {
        var gate = Self.gate()
        #expect(gate.deadline == 10 * Self.second)
        _ = gate.handle(.read(Self.goodInit))
        #expect(gate.deadline == 0)
        _ = gate.handle(.tokenPassed(now: Self.second))
        #expect(gate.deadline == 6 * Self.second)
    }

    @Test(arguments: [
        (GatewayError.Kind.unauthenticated, AuthFailureLabel.expired, ConnectionInitGate.Refusal.unauthenticated),
        (.unauthenticated, .missing, .unauthenticated),
        (.unauthenticated, .invalid_claim, .forbidden),
        (.unavailable, nil, .unavailable),
    ] as [(GatewayError.Kind, AuthFailureLabel?, ConnectionInitGate.Refusal)])
    func refusalFromTheAuth(kind: GatewayError.Kind, reason: AuthFailureLabel?, expected: ConnectionInitGate.Refusal) {
        #expect(ConnectionInitGate.Refusal(kind: kind, reason: reason) == expected)
    }
}

/// Masking keys come in batches from the kernel's CSPRNG; never zero, and past a batch boundary.
@Suite struct MaskingKeySourceTests {
    @Test func keysAreNonZeroAndVaryAcrossBatches() {
        var source = MaskingKeySource()
        let keys = (0..<(3 * MaskingKeySource.batchSize + 1)).map { _ in source.key() }
        #expect(!keys.contains(0))
        #expect(Set(keys).count > keys.count - 2, "a 32-bit collision or two at most")
    }
}
