import GatehouseConfig
import GatehouseHTTP
import GatehouseIO

/// A client connection after a WebSocket upgrade: frames flow both ways between the client and
/// the upstream connection it owns until either side closes, a limit is reached or the verified
/// token expires. Frames are tracked in both directions (`WebSocketFrameParser`) so the gateway
/// closes only between frames, and payloads pass untouched — except that client frames are
/// re-masked with a key of the gateway's own: towards the upstream the gateway is the client,
/// and RFC 6455 §5.3 wants a client's masking key unpredictable to anyone but that client.
final class WebSocketTunnel: UpstreamConnectionOwner {
    enum State {
        /// `token_from: connection_init`: the gateway answered the handshake itself and has no
        /// upstream yet; the client's first message brings the token (`WebSocketTunnel+Init`).
        case initialising(TunnelInitProgress)
        case open
        /// A peer sent a close frame (`code`): relaying goes on so the other side's answer
        /// passes, until a socket closes.
        case peerClosing(code: UInt16)
        /// The gateway closes with `code`: close frames are written as each direction reaches a
        /// frame boundary, then both sockets close once the client has its bytes.
        case closing(code: UInt16)
        case closed
    }

    /// The client connection outlives its tunnel.
    unowned(unsafe) let connection: ClientConnection
    var upstream: UpstreamConnection?
    let route: CompiledRoute
    let config: WebSocketConfig
    var state: State = .open
    var fromClient: WebSocketFrameParser
    var fromUpstream: WebSocketFrameParser
    /// The client's key XOR the gateway's key for the client frame being relayed.
    var remaskDelta: UInt32 = 0
    var deadlines: WebSocketDeadlines
    /// Close frames owed to each side once its direction reaches a frame boundary.
    var closeOwedToClient = false
    var closeOwedToUpstream = false
    var closeReason = ""
    var maskingKeys = MaskingKeySource()
    /// Scratch for re-encoded frame headers (at most 14 bytes).
    var headerScratch: [UInt8] = []

    /// Buffers stop filling at this mark (backpressure), as for exchanges.
    static let highWater = Exchange.highWater
    /// What a busy tunnel reads from its client at most per call: the upstream side's read size
    /// (`UpstreamConnection.readAvailable`), so both directions move alike.
    static let busyReadBytes = 32 * 1024
    /// How long the gateway waits for the client to take its close frame before resetting.
    static let closeGraceNanos: UInt64 = 2_000_000_000

    init(connection: ClientConnection, upstream: UpstreamConnection?, route: CompiledRoute, upgrade: WebSocketUpgrade,
         state: State, now: UInt64, unixNow: Int64) {
        self.connection = connection
        self.upstream = upstream
        self.route = route
        self.state = state
        config = upgrade.config
        let limit = UInt64(upgrade.config.maxMessageSize)
        fromClient = WebSocketFrameParser(sender: .client, maxMessageSize: limit)
        fromUpstream = WebSocketFrameParser(sender: .server, maxMessageSize: limit)
        deadlines = WebSocketDeadlines(now: now, idleNanos: UInt64(config.idleTimeout.nanoseconds),
                                       lifetimeNanos: UInt64(config.maxLifetime.nanoseconds),
                                       expiresAt: Self.expiry(of: upgrade, now: now, unixNow: unixNow))
        headerScratch.reserveCapacity(14)
        upstream?.lend(to: self)
    }

    /// After the upstream's 101 to a handshake that carried its token (or needed none).
    convenience init(connection: ClientConnection, upstream: UpstreamConnection, route: CompiledRoute,
                     upgrade: WebSocketUpgrade, now: UInt64, unixNow: Int64) {
        self.init(connection: connection, upstream: upstream, route: route, upgrade: upgrade, state: .open, now: now,
                  unixNow: unixNow)
    }

    static let nanosPerSecond: UInt64 = 1_000_000_000

    /// When the verified token's `exp` plus leeway passes (monotonic ns), with `close_on_expiry`;
    /// 0 when the tunnel does not close for it.
    static func expiry(of upgrade: WebSocketUpgrade, now: UInt64, unixNow: Int64) -> UInt64 {
        guard upgrade.config.closeOnExpiry, let validUntil = upgrade.credentialsValidUntil else { return 0 }
        return now + UInt64(max(0, validUntil - unixNow)) * nanosPerSecond
    }

    var worker: Worker { connection.worker }

    /// Starts relaying: bytes that came with the 101 (or before it from the client) go first.
    func start() {
        worker.metrics.websocketTunnelsOpen.atomicAdd(0, 1)
        if case .initialising(let progress) = state { return startInitialising(progress) }
        beginRelaying()
    }

    func beginRelaying() {
        connection.setDeadline(deadlines.next)
        if let upstream, !upstream.input.isEmpty { relayFromUpstream(upstream) }
        if !connection.input.isEmpty { relayFromClient() }
        connection.flushOutput()
        upstream?.updateInterest(wantRead: true)
        connection.updateInterest()
        releaseEmptyBuffers()
    }

    /// Read the client while the upstream can take more.
    var wantsClientInput: Bool {
        if case .initialising(let progress) = state { return initWantsClientInput(progress) }
        guard let upstream else { return false }
        switch state {
        case .open, .peerClosing: return upstream.output.readableCount < Self.highWater
        case .initialising, .closing, .closed: return false
        }
    }

    // MARK: - Client side

    func clientReadable() {
        if case .initialising(let progress) = state { return initClientReadable(progress) }
        relayFromClient()
    }

    func clientDrained() {
        switch state {
        case .open, .peerClosing:
            guard let upstream else { return connection.endTunnel() }
            upstream.updateInterest(wantRead: true)
            if !upstream.input.isEmpty { relayFromUpstream(upstream) }
            connection.updateInterest()
        case .closing:
            if !closeOwedToClient { connection.endTunnel() }
        case .initialising:
            connection.updateInterest()
        case .closed:
            break
        }
    }

    /// The client connection closed (end of stream, reset, or the gateway closing it).
    func clientClosed() {
        switch state {
        case .closed: return
        case .initialising(let progress):
            abandonInit(progress, code: WebSocketCloseCode.abnormalClosure)
            recordClose(WebSocketCloseCode.abnormalClosure)
        case .open: recordClose(WebSocketCloseCode.abnormalClosure)
        case .peerClosing, .closing: break
        }
        state = .closed
        releaseUpstream()
        worker.metrics.websocketTunnelsOpen.atomicAdd(0, -1)
    }

    // MARK: - Deadlines

    func deadlineReached(now: UInt64) {
        if case .closing = state, now >= deadlines.closeGrace, deadlines.closeGrace != 0 {
            connection.abortTunnel()
            return
        }
        if case .initialising(let progress) = state { return initDeadlineReached(progress, now: now) }
        if deadlines.buffersMayGo(at: now) { releaseEmptyBuffers() }
        switch deadlines.expired(at: now) {
        case .idle: close(WebSocketCloseCode.goingAway, reason: "idle timeout")
        case .lifetime: close(WebSocketCloseCode.goingAway, reason: "maximum lifetime reached")
        case .credentials: close(WebSocketCloseCode.forbidden, reason: "token expired")
        case nil: connection.setDeadline(deadlines.next)
        }
    }

    /// The worker drains: 1001 to both sides.
    func goingAway() {
        close(WebSocketCloseCode.goingAway, reason: "gateway shutting down")
    }
}
