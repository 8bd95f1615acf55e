/// The life of one client connection as a pure state machine: fed events, it answers with the
/// one thing the I/O shell (`ClientConnection`) must do next and how the connection's timer
/// changes. It reads no socket and no clock — time arrives with the events — so every timeout is
/// a unit-test row on a manual clock (Tests/GatehouseCoreTests/Connection/).
///
/// Per-request deadlines (body, route, pool wait) belong to the exchange while one runs; the
/// machine hands a fired timer on to it (`Action.exchangeDeadline`).
struct ConnectionMachine {
    /// What flows on the connection once a request has been taken on.
    enum Mode: Equatable {
        /// Request → response exchanges, pipelined in order.
        case http
        /// After a 101: frames both ways until either side closes.
        case tunnel
        /// A streamed response (SSE, multipart) flowing to the client.
        case stream
    }

    enum State: Equatable {
        /// `server.tls`: the handshake runs before any request, bounded by `header_timeout`.
        case handshaking
        /// Keep-alive idle: no byte of a next request yet; `idle_timeout` runs.
        case idle
        /// Part of a request head is here; `header_timeout` runs from the first byte.
        /// `peerDone`: the client has half-closed, so what is here is all there will be.
        case readingHead(peerDone: Bool)
        /// A request is being answered; its exchange owns the deadlines.
        case exchanging(Mode, peerDone: Bool)
        /// The gateway's answer to a request it could not take (bad head, head timeout) is
        /// being written; the connection lingers and closes after it.
        case refusing
        /// The last response is written and the sending side shut: unread request bytes are
        /// read and dropped for a moment, so the close does not turn into a reset that destroys
        /// the response in flight.
        case lingering
        case closed
    }

    /// The few durations the machine needs, from `server:` (nanoseconds).
    struct Timeouts: Equatable {
        var header: UInt64
        var idle: UInt64
        /// How long a lingering connection may keep sending before it is closed.
        var linger: UInt64 = Self.lingerNanos
        /// How long writing a refusal may take (a client that never reads it).
        var refusal: UInt64 = Self.refusalNanos

        /// Long enough for a client to read the response and close first; nginx's
        /// `lingering_time` serves the same purpose.
        static let lingerNanos: UInt64 = 2_000_000_000
        static let refusalNanos: UInt64 = 5_000_000_000
    }

    enum Event: Equatable {
        case opened(tls: Bool, now: UInt64)
        case handshakeFinished(now: UInt64)
        case handshakeFailed
        /// A read put bytes into the input buffer.
        case bytesArrived(now: UInt64)
        /// The parser needs more bytes for the head in the input buffer.
        case headIncomplete
        /// The head cannot be taken (malformed, too large); the shell holds the answer.
        case headRefused(now: UInt64)
        case headParsed
        /// End of the client's stream. `requestComplete`: the request in flight has been read
        /// whole, so it can still be answered (a client that half-closes after asking).
        case peerClosed(requestComplete: Bool)
        case ioFailed
        /// Everything queued for the client has been written.
        case outputDrained(now: UInt64)
        case exchangeFinished(keepAlive: Bool, inputPending: Bool, draining: Bool, now: UInt64)
        /// The exchange cut its response off mid-way: the client must not take it for whole.
        case exchangeAborted
        case modeChanged(Mode)
        case timerFired(now: UInt64)
        case drainStarted
    }

    enum Action: Equatable {
        case none
        case continueHandshake
        /// Parse the head in the input buffer now.
        case parseHead
        /// A pipelined head is already buffered: parse it after the current event.
        case parseHeadLater
        case startExchange
        /// Write the refusal's envelope with `Connection: close`.
        case refuse(Refusal)
        /// Let the running exchange look at its deadlines.
        case exchangeDeadline(now: UInt64)
        /// Recompute epoll interest (more input is wanted, or output waits).
        case updateInterest
        /// Idle again: give the buffers back to the worker's pool.
        case releaseBuffers
        /// Shut the sending side and read-and-drop until the client closes.
        case linger
        case close
        /// Close with a reset (SO_LINGER 0): unsent bytes must not trickle out.
        case abort
    }

    /// Why a head is refused. A reason, not the error: actions stay plain values, so a step
    /// costs nothing to drop (an error's text made every step's destruction a call).
    enum Refusal: Equatable {
        /// The shell's parser refused it and holds the error.
        case malformedHead
        /// The header timeout fired first.
        case headTimedOut
    }

    enum TimerChange: Equatable {
        case keep
        case set(UInt64)
        case clear
    }

    struct Step: Equatable {
        var action: Action
        var timer: TimerChange = .keep
    }

    private(set) var state: State = .idle
    let timeouts: Timeouts

    init(timeouts: Timeouts) {
        self.timeouts = timeouts
    }

    var isClosed: Bool { state == .closed }
    /// No request in progress and nothing received: safe to close at a drain.
    var isIdle: Bool { state == .idle }
    var mode: Mode? {
        if case .exchanging(let mode, _) = state { return mode }
        return nil
    }

    // MARK: - Transitions

    mutating func handle(_ event: Event) -> Step {
        switch event {
        case .opened(let tls, let now):
            if tls {
                state = .handshaking
                return Step(action: .continueHandshake, timer: .set(now + timeouts.header))
            }
            state = .idle
            return Step(action: .updateInterest, timer: .set(now + timeouts.idle))

        case .handshakeFinished(let now):
            guard state == .handshaking else { return Step(action: .none) }
            state = .idle
            return Step(action: .updateInterest, timer: .set(now + timeouts.idle))

        case .handshakeFailed, .ioFailed:
            return close()

        case .bytesArrived(let now):
            switch state {
            case .idle:
                state = .readingHead(peerDone: false)
                return Step(action: .parseHead, timer: .set(now + timeouts.header))
            case .readingHead:
                return Step(action: .parseHead)
            case .lingering, .refusing, .exchanging, .handshaking, .closed:
                return Step(action: .none)
            }

        case .headIncomplete:
            // A half-closed client will never send the rest of this head.
            if case .readingHead(peerDone: true) = state { return close() }
            return Step(action: .updateInterest)

        case .headRefused(let now):
            state = .refusing
            return Step(action: .refuse(.malformedHead), timer: .set(now + timeouts.refusal))

        case .headParsed:
            guard case .readingHead(let peerDone) = state else { return Step(action: .none) }
            state = .exchanging(.http, peerDone: peerDone)
            return Step(action: .startExchange, timer: .clear)

        case .peerClosed(let requestComplete):
            switch state {
            case .exchanging(let mode, _) where requestComplete && mode == .http:
                state = .exchanging(mode, peerDone: true)
                return Step(action: .updateInterest)
            default:
                return close()
            }

        case .outputDrained(let now):
            if state == .refusing { return linger(now: now) }
            return Step(action: .updateInterest)

        case .exchangeFinished(let keepAlive, let inputPending, let draining, let now):
            guard case .exchanging(_, let peerDone) = state else { return Step(action: .none) }
            if !keepAlive || draining || (peerDone && !inputPending) { return linger(now: now) }
            if inputPending {
                state = .readingHead(peerDone: peerDone)
                return Step(action: .parseHeadLater, timer: .set(now + timeouts.header))
            }
            state = .idle
            return Step(action: .releaseBuffers, timer: .set(now + timeouts.idle))

        case .exchangeAborted:
            state = .closed
            return Step(action: .abort, timer: .clear)

        case .modeChanged(let mode):
            guard case .exchanging(_, let peerDone) = state else { return Step(action: .none) }
            state = .exchanging(mode, peerDone: peerDone)
            return Step(action: .updateInterest)

        case .timerFired(let now):
            switch state {
            case .handshaking, .idle, .refusing, .lingering:
                return close()
            case .readingHead:
                state = .refusing
                return Step(action: .refuse(.headTimedOut), timer: .set(now + timeouts.refusal))
            case .exchanging:
                return Step(action: .exchangeDeadline(now: now))
            case .closed:
                return Step(action: .none)
            }

        case .drainStarted:
            // Busy connections finish their request and then close (`Connection: close`).
            if state == .idle { return close() }
            return Step(action: .none)
        }
    }

    private mutating func close() -> Step {
        if state == .closed { return Step(action: .none) }
        state = .closed
        return Step(action: .close, timer: .clear)
    }

    private mutating func linger(now: UInt64) -> Step {
        state = .lingering
        return Step(action: .linger, timer: .set(now + timeouts.linger))
    }

    // MARK: - Interest

    /// Which readiness to watch the socket for. `exchangeWantsInput` is the running exchange's
    /// say (body bytes wanted, or room for early pipelined bytes); nil when none runs.
    func wantsReadable(exchangeWantsInput: Bool) -> Bool {
        switch state {
        case .idle, .lingering: return true
        case .readingHead(let peerDone): return !peerDone
        case .exchanging(_, let peerDone): return !peerDone && exchangeWantsInput
        // A refusal is written without reading on: the request's framing is not trusted.
        case .refusing, .handshaking, .closed: return false
        }
    }
}
