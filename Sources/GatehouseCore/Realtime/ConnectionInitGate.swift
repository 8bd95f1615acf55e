import GatehouseHTTP

/// The part of a `connection_init` tunnel's life before the upstream is reached, as a pure
/// machine on an injected clock: the gateway has answered the handshake itself and waits for the
/// client's first message (`init_timeout`), verifies the token in it (the route's auth, which may
/// wait for a key refetch), opens the upstream WebSocket (within the route `timeout`), and only
/// then lets frames flow. Each refusal is a close code (README, "WebSocket"); nothing reaches the
/// upstream before the token passed.
struct ConnectionInitGate: Equatable {
    enum State: Equatable {
        /// The 101 is out; the first message must arrive by `deadline`.
        case awaitingMessage(deadline: UInt64)
        /// The token is with the route's auth; later client frames are held.
        case verifying
        /// The token passed: the upstream handshake must be answered by `deadline`.
        case openingUpstream(deadline: UInt64)
        /// The upstream answered 101: the held frames go first, then the tunnel relays.
        case passed
        /// Closed with `code`; the upstream never saw the client (or failed to answer).
        case refused(code: UInt16)
    }

    /// Why the route's auth refused the token.
    enum Refusal: Equatable {
        /// Missing, malformed, badly signed, expired…: 4401.
        case unauthenticated
        /// Authentic, but its claims are refused (a claim rule, a claim no header may carry): 4403.
        case forbidden
        /// The provider's keys are not fetched yet: the client may retry (1013).
        case unavailable

        /// From the auth's refusal, as the handshake would have been answered (401 / 503).
        init(kind: GatewayError.Kind, reason: AuthFailureLabel?) {
            if kind == .unavailable {
                self = .unavailable
            } else if reason == .invalid_claim {
                self = .forbidden
            } else {
                self = .unauthenticated
            }
        }
    }

    /// The error a handshake ended by the gate is logged with (`error_code` in the access log),
    /// as the envelope for the same refusal before an upgrade would be; nil for a normal close.
    static func errorKind(closingWith code: UInt16) -> GatewayError.Kind? {
        switch code {
        case WebSocketCloseCode.unauthenticated: return .unauthenticated
        case WebSocketCloseCode.forbidden: return .forbidden
        case WebSocketCloseCode.initTimeout: return .requestTimeout
        case WebSocketCloseCode.badRequest, WebSocketCloseCode.protocolError: return .badRequest
        case WebSocketCloseCode.messageTooBig: return .payloadTooLarge
        case WebSocketCloseCode.upstreamFailed: return .upstreamError(upstreamStatus: nil)
        case WebSocketCloseCode.tryAgainLater, WebSocketCloseCode.goingAway: return .unavailable
        case WebSocketCloseCode.abnormalClosure: return .clientClosed
        default: return nil
        }
    }

    enum Event: Equatable {
        /// The reader looked at the held client bytes.
        case read(ConnectionInitReader.Reading)
        case tokenPassed(now: UInt64)
        case tokenRefused(Refusal)
        case upstreamOpened
        case upstreamFailed
        case timerFired(now: UInt64)
    }

    enum Action: Equatable {
        case none
        /// Verify this token with the route's auth.
        case verify([UInt8])
        /// Take an upstream connection and send the handshake.
        case openUpstream
        /// Relay the held frames, then everything else.
        case relay
        case close(code: UInt16, reason: String)
    }

    let field: String
    /// graphql-transport-ws answers a wrong first message with 4400 (its protocol says so);
    /// other subprotocols get 4401, since no token came.
    let strictProtocol: Bool
    let upstreamTimeoutNanos: UInt64
    private(set) var state: State

    static let strictSubprotocol = "graphql-transport-ws"

    init(field: String, subprotocol: String?, now: UInt64, initTimeoutNanos: UInt64, upstreamTimeoutNanos: UInt64) {
        self.field = field
        strictProtocol = subprotocol == Self.strictSubprotocol
        self.upstreamTimeoutNanos = upstreamTimeoutNanos
        state = .awaitingMessage(deadline: now + initTimeoutNanos)
    }

    /// When the gate's timer must fire (monotonic ns); 0 when none runs.
    var deadline: UInt64 {
        switch state {
        case .awaitingMessage(let deadline), .openingUpstream(let deadline): return deadline
        case .verifying, .passed, .refused: return 0
        }
    }

    /// Whether the client's first message is still awaited (the reader runs on new bytes).
    var awaitsMessage: Bool {
        if case .awaitingMessage = state { return true }
        return false
    }

    mutating func handle(_ event: Event) -> Action {
        switch (state, event) {
        case (.awaitingMessage, .read(let reading)):
            return read(reading)
        case (.verifying, .tokenPassed(let now)):
            state = .openingUpstream(deadline: now + upstreamTimeoutNanos)
            return .openUpstream
        case (.verifying, .tokenRefused(let refusal)):
            switch refusal {
            case .unauthenticated: return refuse(WebSocketCloseCode.unauthenticated, "invalid token")
            case .forbidden: return refuse(WebSocketCloseCode.forbidden, "forbidden")
            case .unavailable: return refuse(WebSocketCloseCode.tryAgainLater, "identity keys not available yet")
            }
        case (.openingUpstream, .upstreamOpened):
            state = .passed
            return .relay
        case (.openingUpstream, .upstreamFailed):
            return refuse(WebSocketCloseCode.upstreamFailed, "upstream failed")
        case (.awaitingMessage(let deadline), .timerFired(let now)) where now >= deadline:
            return refuse(WebSocketCloseCode.initTimeout, "Connection initialisation timeout")
        case (.openingUpstream(let deadline), .timerFired(let now)) where now >= deadline:
            return refuse(WebSocketCloseCode.upstreamFailed, "upstream did not answer in time")
        default:
            return .none
        }
    }

    private mutating func read(_ reading: ConnectionInitReader.Reading) -> Action {
        switch reading {
        case .needMore:
            return .none
        case .closed:
            return refuse(WebSocketCloseCode.normal, "closed before connection_init")
        case .invalid(let error):
            return refuse(error.closeCode, error == .messageTooBig ? "message too big" : "protocol error")
        case .message(let opcode, let payload):
            switch ConnectionInitMessage.read(opcode: opcode, payload: payload, field: field) {
            case .token(let token):
                state = .verifying
                return .verify(token)
            case .noToken:
                return refuse(WebSocketCloseCode.unauthenticated, "connection_init carries no token")
            case .notConnectionInit where strictProtocol:
                return refuse(WebSocketCloseCode.badRequest, "the first message must be connection_init")
            case .notConnectionInit:
                return refuse(WebSocketCloseCode.unauthenticated, "the first message must be connection_init")
            }
        }
    }

    private mutating func refuse(_ code: UInt16, _ reason: String) -> Action {
        state = .refused(code: code)
        return .close(code: code, reason: reason)
    }
}
