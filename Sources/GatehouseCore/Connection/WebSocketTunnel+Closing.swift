import GatehouseHTTP
import GatehouseIO

/// Closing a tunnel: by a peer's close frame (relayed like any frame), or by the gateway with a
/// code of its own, written to each side at its next frame boundary.
extension WebSocketTunnel {
    /// A peer's close frame passed through: counted by its code; the other side answers it.
    func peerClosed(_ code: UInt16) {
        guard case .open = state else { return }
        recordClose(code)
        state = .peerClosing(code: code)
    }

    /// The gateway closes with `code`. The upstream gets a close frame if its direction is
    /// between frames (otherwise its socket is simply closed: the gateway stops reading the
    /// client, so a half-relayed frame will not be finished); the client gets one as soon as
    /// the upstream's frame in flight, if any, has been relayed whole.
    func close(_ code: UInt16, reason: String) {
        switch state {
        case .open, .peerClosing: break
        case .initialising(let progress): abandonInit(progress, code: code)
        case .closing, .closed: return
        }
        recordClose(code)
        state = .closing(code: code)
        closeReason = reason
        closeOwedToClient = true
        closeOwedToUpstream = upstream != nil && fromClient.isBetweenFrames
        if fromUpstream.isBetweenFrames || upstream == nil { sendOwedCloseToClient() }
        deadlines.closeGrace = connection.loop.now + Self.closeGraceNanos
        connection.setDeadline(deadlines.next)
    }

    func sendOwedCloseToClient() {
        guard closeOwedToClient, case .closing(let code) = state else { return }
        closeOwedToClient = false
        connection.output.append(WebSocketCloseFrame.bytes(code: code, reason: closeReason, maskingKey: nil))
        sendOwedCloseToUpstream()
        releaseUpstream()
        connection.flushOutput()
    }

    /// Masked, as every frame towards the upstream; its socket is closed right after.
    func sendOwedCloseToUpstream() {
        guard closeOwedToUpstream, case .closing(let code) = state, let upstream else { return }
        closeOwedToUpstream = false
        upstream.output.append(WebSocketCloseFrame.bytes(code: code, reason: closeReason, maskingKey: nextMaskingKey()))
        _ = upstream.flush()
    }

    /// The upstream connection is closed, never pooled: it spoke WebSocket.
    func releaseUpstream() {
        guard let upstream else { return }
        self.upstream = nil
        upstream.owner = nil
        upstream.pool.discard(upstream)
    }

    func recordClose(_ code: UInt16) {
        worker.metrics.recordWebSocketClose(route: route.label, code: code)
    }
}
