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
    var random = SystemRandomNumberGenerator()
    /// Scratch for re-encoded frame headers (at most 14 bytes).
    var headerScratch: [UInt8] = []

    /// Buffers stop filling at this mark (backpressure), as for exchanges.
    static let highWater = Exchange.highWater
    /// How long the gateway waits for the client to take its close frame before resetting.
    static let closeGraceNanos: UInt64 = 2_000_000_000

    init(connection: ClientConnection, upstream: UpstreamConnection, route: CompiledRoute, upgrade: WebSocketUpgrade,
         now: UInt64, unixNow: Int64) {
        self.connection = connection
        self.upstream = upstream
        self.route = route
        config = upgrade.config
        let limit = UInt64(upgrade.config.maxMessageSize)
        fromClient = WebSocketFrameParser(sender: .client, maxMessageSize: limit)
        fromUpstream = WebSocketFrameParser(sender: .server, maxMessageSize: limit)
        var expiresAt: UInt64 = 0
        if upgrade.config.closeOnExpiry, let validUntil = upgrade.credentialsValidUntil {
            let left = max(0, validUntil - unixNow)
            expiresAt = now + UInt64(left) * 1_000_000_000
        }
        deadlines = WebSocketDeadlines(now: now, idleNanos: UInt64(config.idleTimeout.nanoseconds),
                                       lifetimeNanos: UInt64(config.maxLifetime.nanoseconds), expiresAt: expiresAt)
        headerScratch.reserveCapacity(14)
        upstream.lend(to: self)
    }

    var worker: Worker { connection.worker }

    /// Starts relaying: bytes that came with the 101 (or before it from the client) go first.
    func start() {
        worker.metrics.websocketTunnelsOpen.atomicAdd(0, 1)
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
        guard let upstream else { return false }
        switch state {
        case .open, .peerClosing: return upstream.output.readableCount < Self.highWater
        case .closing, .closed: return false
        }
    }

    // MARK: - Client side

    func clientReadable() {
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
        case .closed:
            break
        }
    }

    /// The client connection closed (end of stream, reset, or the gateway closing it).
    func clientClosed() {
        if case .closed = state { return }
        if case .open = state { recordClose(WebSocketCloseCode.abnormalClosure) }
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
