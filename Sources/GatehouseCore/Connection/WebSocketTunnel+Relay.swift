import GatehouseHTTP
import GatehouseIO

/// Moving frames between the two sides, and closing.
extension WebSocketTunnel {
    // MARK: - Client → upstream (re-masked)

    func relayFromClient() {
        guard let upstream else { return }
        var moved = false
        relaying: while !connection.input.isEmpty, upstream.output.readableCount < Self.highWater {
            if case .closed = state { return }
            let step = fromClient.parse(connection.input.readable)
            switch step {
            case .header(var header, let consumed):
                let clientKey = header.maskingKey ?? 0
                let gatewayKey = nextMaskingKey()
                remaskDelta = clientKey ^ gatewayKey
                header.maskingKey = gatewayKey
                headerScratch.removeAll(keepingCapacity: true)
                header.write(into: &headerScratch)
                upstream.output.append(headerScratch)
                connection.input.consume(consumed)
                if header.opcode == .close { peekClientCloseCode(clientKey, hasCode: header.payloadLength >= 2) }
                moved = true
            case .payload(let range, let offset, _, let consumed):
                let count = range.count
                upstream.output.reserveTail(count)
                let target = UnsafeMutableRawBufferPointer(start: upstream.output.tail, count: count)
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: connection.input.readable[range]))
                WebSocketMasking.apply(key: remaskDelta, offset: offset, to: target)
                upstream.output.commit(count)
                connection.input.consume(consumed)
                moved = true
            case .needMore(let consumed):
                connection.input.consume(consumed)
                break relaying
            case .invalid(let error):
                connection.input.consume(connection.input.readableCount)
                close(error.closeCode, reason: error == .messageTooBig ? "message too big" : "protocol error")
                return
            }
        }
        if moved { deadlines.activity(now: connection.loop.now) }
        if !upstream.flush() { return }
        upstream.updateInterest(wantRead: connection.output.readableCount < Self.highWater)
        connection.updateInterest()
        releaseEmptyBuffers()
    }

    /// A subscription is idle most of its life: buffers emptied by a relay go back (the client's
    /// to the worker's pool), so an idle tunnel holds little more than its objects.
    func releaseEmptyBuffers() {
        worker.buffers.recycle(&connection.input)
        worker.buffers.recycle(&connection.output)
        guard let upstream else { return }
        upstream.input.release()
        upstream.output.release()
    }

    /// A fresh, non-zero key per frame (a zero key would leave the payload as sent).
    func nextMaskingKey() -> UInt32 {
        while true {
            let key = UInt32(truncatingIfNeeded: random.next())
            if key != 0 { return key }
        }
    }

    /// Counts a client's close by its code when the code is already here.
    private func peekClientCloseCode(_ key: UInt32, hasCode: Bool) {
        let readable = connection.input.readable
        guard hasCode, readable.count >= 2 else { return peerClosed(WebSocketCloseCode.noStatus) }
        var code = [readable[0], readable[1]]
        code.withUnsafeMutableBytes { WebSocketMasking.apply(key: key, offset: 0, to: $0) }
        peerClosed(UInt16(code[0]) << 8 | UInt16(code[1]))
    }

    // MARK: - Upstream → client (verbatim)

    func relayFromUpstream(_ upstream: UpstreamConnection) {
        var moved = false
        relaying: while !upstream.input.isEmpty, connection.output.readableCount < Self.highWater {
            if case .closing = state, !closeOwedToClient {
                upstream.input.consume(upstream.input.readableCount)  // the client has its close frame
                break relaying
            }
            let readable = upstream.input.readable
            switch fromUpstream.parse(readable) {
            case .header(let header, let consumed):
                if header.opcode == .close {
                    let hasCode = header.payloadLength >= 2 && readable.count >= consumed + 2
                    peerClosed(hasCode ? UInt16(readable[consumed]) << 8 | UInt16(readable[consumed + 1]) : WebSocketCloseCode.noStatus)
                }
                connection.output.append(UnsafeRawBufferPointer(rebasing: readable[0..<consumed]))
                upstream.input.consume(consumed)
                moved = true
                if header.payloadLength == 0, closeOwedToClient { sendOwedCloseToClient() }
            case .payload(_, _, let frameEnds, let consumed):
                connection.output.append(UnsafeRawBufferPointer(rebasing: readable[0..<consumed]))
                upstream.input.consume(consumed)
                moved = true
                if frameEnds, closeOwedToClient { sendOwedCloseToClient() }
            case .needMore(let consumed):
                connection.output.append(UnsafeRawBufferPointer(rebasing: readable[0..<consumed]))
                upstream.input.consume(consumed)
                break relaying
            case .invalid(let error):
                upstream.input.consume(upstream.input.readableCount)
                let code = error == .messageTooBig ? WebSocketCloseCode.messageTooBig : WebSocketCloseCode.upstreamFailed
                close(code, reason: error == .messageTooBig ? "message too big" : "upstream protocol error")
                return
            }
        }
        if moved { deadlines.activity(now: connection.loop.now) }
        upstream.updateInterest(wantRead: connection.output.readableCount < Self.highWater)
        connection.flushOutput()
        releaseEmptyBuffers()
    }

    // MARK: - UpstreamConnectionOwner

    func upstreamConnected(_ connection: UpstreamConnection) {}

    func upstreamReadable(_ upstream: UpstreamConnection) {
        guard upstream === self.upstream else { return }
        if connection.output.readableCount >= Self.highWater {
            upstream.updateInterest(wantRead: false)
            return
        }
        switch upstream.readAvailable() {
        case .failure:
            upstreamGone()
        case .success(0):
            relayFromUpstream(upstream)
            upstreamGone()
        case .success:
            relayFromUpstream(upstream)
        }
    }

    func upstreamWritable(_ upstream: UpstreamConnection) {
        guard upstream === self.upstream, upstream.flush() else { return }
        connection.updateInterest()
        if !connection.input.isEmpty { relayFromClient() }
    }

    func upstreamFailed(_ upstream: UpstreamConnection, _ failure: UpstreamFailure) {
        guard upstream === self.upstream else { return }
        upstreamGone()
    }

    /// The upstream closed its socket: after a close handshake that is the normal end; on an
    /// open tunnel (or a failure) the client gets 1011.
    private func upstreamGone() {
        releaseUpstream()
        switch state {
        case .open:
            close(WebSocketCloseCode.upstreamFailed, reason: "upstream failed")
        case .peerClosing, .closing:
            if !closeOwedToClient && connection.output.isEmpty { connection.endTunnel() }
        case .closed:
            break
        }
    }
}
