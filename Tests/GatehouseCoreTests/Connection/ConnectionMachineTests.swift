import Testing
@testable import GatehouseCore

/// The connection's life on a manual clock: each row feeds events and checks the last step and
/// the state it leaves. Times are in seconds for readability.
@Suite struct ConnectionMachineTests {
    typealias Event = ConnectionMachine.Event
    typealias Step = ConnectionMachine.Step

    static let second: UInt64 = 1_000_000_000
    static let timeouts = ConnectionMachine.Timeouts(header: 10 * second, idle: 60 * second)
    static func at(_ seconds: Double) -> UInt64 { UInt64(seconds * Double(second)) }

    struct Row: CustomTestStringConvertible, Sendable {
        let name: String
        let events: [Event]
        let step: Step
        let state: ConnectionMachine.State
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        // Opening.
        Row(name: "plain connection starts idle with the idle timeout",
            events: [.opened(tls: false, now: at(1))],
            step: Step(action: .updateInterest, timer: .set(at(61))), state: .idle),
        Row(name: "TLS connection handshakes under the header timeout",
            events: [.opened(tls: true, now: at(1))],
            step: Step(action: .continueHandshake, timer: .set(at(11))), state: .handshaking),
        Row(name: "handshake done: idle",
            events: [.opened(tls: true, now: at(1)), .handshakeFinished(now: at(2))],
            step: Step(action: .updateInterest, timer: .set(at(62))), state: .idle),
        Row(name: "handshake timeout closes without a response",
            events: [.opened(tls: true, now: at(1)), .timerFired(now: at(11))],
            step: Step(action: .close, timer: .clear), state: .closed),
        Row(name: "failed handshake closes",
            events: [.opened(tls: true, now: at(1)), .handshakeFailed],
            step: Step(action: .close, timer: .clear), state: .closed),
        // Heads.
        Row(name: "first byte starts the header timeout",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(5))],
            step: Step(action: .parseHead, timer: .set(at(15))), state: .readingHead(peerDone: false)),
        Row(name: "a trickling head does not extend the header timeout",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(5)), .headIncomplete, .bytesArrived(now: at(9))],
            step: Step(action: .parseHead), state: .readingHead(peerDone: false)),
        Row(name: "header timeout: 408, then linger",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(5)), .headIncomplete, .timerFired(now: at(15))],
            step: Step(action: .refuse(.headTimedOut), timer: .set(at(20))), state: .refusing),
        Row(name: "idle timeout: silent close",
            events: [.opened(tls: false, now: 0), .timerFired(now: at(60))],
            step: Step(action: .close, timer: .clear), state: .closed),
        Row(name: "bad head is refused",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headRefused(now: at(1))],
            step: Step(action: .refuse(.malformedHead), timer: .set(at(6))), state: .refusing),
        Row(name: "refusal written: linger for the linger time",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headRefused(now: at(1)),
                     .outputDrained(now: at(2))],
            step: Step(action: .linger, timer: .set(at(4))), state: .lingering),
        Row(name: "slow writer: a refusal never read is closed at the refusal limit",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headRefused(now: at(1)),
                     .timerFired(now: at(6))],
            step: Step(action: .close, timer: .clear), state: .closed),
        Row(name: "linger ends at its deadline",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headRefused(now: at(1)),
                     .outputDrained(now: at(2)), .timerFired(now: at(4))],
            step: Step(action: .close, timer: .clear), state: .closed),
        Row(name: "parsed head starts the exchange and hands it the timer",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed],
            step: Step(action: .startExchange, timer: .clear), state: .exchanging(.http, peerDone: false)),
        Row(name: "a timer during an exchange is the exchange's (body, route, pool wait)",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed, .timerFired(now: at(31))],
            step: Step(action: .exchangeDeadline(now: at(31))), state: .exchanging(.http, peerDone: false)),
        Row(name: "a half-closed head will never complete",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed,
                     .peerClosed(requestComplete: true),
                     .exchangeFinished(keepAlive: true, inputPending: true, draining: false, now: at(2)),
                     .headIncomplete],
            step: Step(action: .close, timer: .clear), state: .closed),
        // Ends of exchanges.
        Row(name: "keep-alive: idle again, buffers released",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed,
                     .exchangeFinished(keepAlive: true, inputPending: false, draining: false, now: at(2))],
            step: Step(action: .releaseBuffers, timer: .set(at(62))), state: .idle),
        Row(name: "pipelined head already here: parsed after this event",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed,
                     .exchangeFinished(keepAlive: true, inputPending: true, draining: false, now: at(2))],
            step: Step(action: .parseHeadLater, timer: .set(at(12))), state: .readingHead(peerDone: false)),
        Row(name: "Connection: close lingers",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed,
                     .exchangeFinished(keepAlive: false, inputPending: false, draining: false, now: at(2))],
            step: Step(action: .linger, timer: .set(at(4))), state: .lingering),
        Row(name: "drain: a busy connection closes after its response",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed, .drainStarted,
                     .exchangeFinished(keepAlive: true, inputPending: false, draining: true, now: at(2))],
            step: Step(action: .linger, timer: .set(at(4))), state: .lingering),
        Row(name: "drain: an idle connection closes at once",
            events: [.opened(tls: false, now: 0), .drainStarted],
            step: Step(action: .close, timer: .clear), state: .closed),
        Row(name: "drain: a connection reading a head is left to finish",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .drainStarted],
            step: Step(action: .none), state: .readingHead(peerDone: false)),
        Row(name: "half-close after a whole request: answered, then closed",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed,
                     .peerClosed(requestComplete: true),
                     .exchangeFinished(keepAlive: true, inputPending: false, draining: false, now: at(2))],
            step: Step(action: .linger, timer: .set(at(4))), state: .lingering),
        Row(name: "end of stream mid-body aborts",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed,
                     .peerClosed(requestComplete: false)],
            step: Step(action: .close, timer: .clear), state: .closed),
        Row(name: "a response cut off is a reset",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed, .exchangeAborted],
            step: Step(action: .abort, timer: .clear), state: .closed),
        Row(name: "modes are states: a tunnel",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed, .modeChanged(.tunnel)],
            step: Step(action: .updateInterest), state: .exchanging(.tunnel, peerDone: false)),
        Row(name: "a tunnel's end of stream closes it",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed, .modeChanged(.tunnel),
                     .peerClosed(requestComplete: true)],
            step: Step(action: .close, timer: .clear), state: .closed),
        Row(name: "a tunnel's timer goes to the tunnel (idle, lifetime, token expiry)",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed, .modeChanged(.tunnel),
                     .timerFired(now: at(300))],
            step: Step(action: .exchangeDeadline(now: at(300))), state: .exchanging(.tunnel, peerDone: false)),
        Row(name: "a drain leaves the tunnel to close itself with 1001",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed, .modeChanged(.tunnel),
                     .drainStarted],
            step: Step(action: .none), state: .exchanging(.tunnel, peerDone: false)),
        Row(name: "a tunnel's close frame written: linger, so unread input does not reset it",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed, .modeChanged(.tunnel),
                     .exchangeFinished(keepAlive: false, inputPending: false, draining: false, now: at(50))],
            step: Step(action: .linger, timer: .set(at(52))), state: .lingering),
        Row(name: "a tunnel that cannot close in time is reset",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed, .modeChanged(.tunnel),
                     .exchangeAborted],
            step: Step(action: .abort, timer: .clear), state: .closed),
        Row(name: "modes are states: a streamed response",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed, .modeChanged(.stream)],
            step: Step(action: .updateInterest), state: .exchanging(.stream, peerDone: false)),
        Row(name: "a stream's timer goes to its exchange (stream_idle_timeout)",
            events: [.opened(tls: false, now: 0), .bytesArrived(now: at(1)), .headParsed, .modeChanged(.stream),
                     .timerFired(now: at(400))],
            step: Step(action: .exchangeDeadline(now: at(400))), state: .exchanging(.stream, peerDone: false)),
        Row(name: "I/O failure closes",
            events: [.opened(tls: false, now: 0), .ioFailed],
            step: Step(action: .close, timer: .clear), state: .closed),
        Row(name: "nothing happens to a closed connection",
            events: [.opened(tls: false, now: 0), .ioFailed, .timerFired(now: at(99))],
            step: Step(action: .none), state: .closed),
    ]

    @Test(arguments: rows)
    func row(_ row: Row) {
        var machine = ConnectionMachine(timeouts: Self.timeouts)
        var last = Step(action: .none)
        for event in row.events { last = machine.handle(event) }
        #expect(last == row.step)
        #expect(machine.state == row.state)
    }

    @Test func interestFollowsTheState() {
        var machine = ConnectionMachine(timeouts: Self.timeouts)
        _ = machine.handle(.opened(tls: false, now: 0))
        #expect(machine.wantsReadable(exchangeWantsInput: false))
        _ = machine.handle(.bytesArrived(now: 1))
        _ = machine.handle(.headParsed)
        #expect(!machine.wantsReadable(exchangeWantsInput: false))
        #expect(machine.wantsReadable(exchangeWantsInput: true))
        _ = machine.handle(.peerClosed(requestComplete: true))
        #expect(!machine.wantsReadable(exchangeWantsInput: true))
    }
}
