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
        keepBuffersWhileBusy()
    }

    /// A subscription is idle most of its life: its empty buffers go back (the client's to the
    /// worker's pool), so an idle tunnel holds little more than its objects.
    func releaseEmptyBuffers() {
        worker.buffers.recycle(&connection.input)
        worker.buffers.recycle(&connection.output)
        guard let upstream else { return }
        upstream.input.release()
        upstream.output.release()
    }

    /// A fresh, non-zero key per frame.
    func nextMaskingKey() -> UInt32 {
        maskingKeys.key()
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
        // Bytes at the front of the upstream's input that have been parsed and not yet delivered:
        // they go to the client in one piece (`deliver`), before any close frame of the gateway's.
        var parsed = 0
        relaying: while parsed < upstream.input.readableCount, connection.output.readableCount + parsed < Self.highWater {
            if case .closing = state, !closeOwedToClient {
                upstream.input.consume(upstream.input.readableCount)  // the client has its close frame
                break relaying
            }
            let readable = UnsafeRawBufferPointer(rebasing: upstream.input.readable[parsed...])
            switch fromUpstream.parse(readable) {
            case .header(let header, let consumed):
                if header.opcode == .close {
                    let hasCode = header.payloadLength >= 2 && readable.count >= consumed + 2
                    peerClosed(hasCode ? UInt16(readable[consumed]) << 8 | UInt16(readable[consumed + 1]) : WebSocketCloseCode.noStatus)
                }
                parsed += consumed
                moved = true
                if header.payloadLength == 0, closeOwedToClient {
                    deliver(&parsed, from: upstream)
                    sendOwedCloseToClient()
                }
            case .payload(_, _, let frameEnds, let consumed):
                parsed += consumed
                moved = true
                if frameEnds, closeOwedToClient {
                    deliver(&parsed, from: upstream)
                    sendOwedCloseToClient()
                }
            case .needMore(let consumed):
                parsed += consumed
                break relaying
            case .invalid(let error):
                deliver(&parsed, from: upstream)
                upstream.input.consume(upstream.input.readableCount)
                let code = error == .messageTooBig ? WebSocketCloseCode.messageTooBig : WebSocketCloseCode.upstreamFailed
                close(code, reason: error == .messageTooBig ? "message too big" : "upstream protocol error")
                return
            }
        }
        deliver(&parsed, from: upstream)
        if moved { deadlines.activity(now: connection.loop.now) }
        upstream.updateInterest(wantRead: connection.output.readableCount < Self.highWater)
        connection.flushOutput()
        keepBuffersWhileBusy()
    }

    /// Hands the first `count` bytes of the upstream's input to the client: written straight from
    /// there when nothing is queued before them (no copy: profiling showed the copy into the
    /// client's output as the relay's largest cost after masking), the rest queued in order.
    private func deliver(_ count: inout Int, from upstream: UpstreamConnection) {
        guard count > 0 else { return }
        var written = 0
        if connection.output.isEmpty, let start = upstream.input.readable.baseAddress {
            while written < count, case .done(let n) = connection.stream.write(from: start + written, count: count - written),
                  n > 0 {
                written += n
            }
        }
        if written < count {
            connection.output.append(UnsafeRawBufferPointer(rebasing: upstream.input.readable[written..<count]))
        }
        upstream.input.consume(count)
        count = 0
    }

    /// A busy tunnel keeps its buffers (giving them back after every relay would cost an
    /// allocation per read); once it has been quiet for a moment they go back.
    /// The client's input grows to `busyReadBytes` so a burst of frames is read in a few calls
    /// rather than one 4 KiB pooled buffer per call.
    func keepBuffersWhileBusy() {
        if connection.input.capacity < Self.busyReadBytes { connection.input.reserveTail(Self.busyReadBytes) }
        if deadlines.keepBuffers(now: connection.loop.now) { connection.setDeadline(deadlines.next) }
    }

    // MARK: - UpstreamConnectionOwner

    func upstreamConnected(_ connection: UpstreamConnection) {
        if case .initialising = state, connection === upstream { sendUpstreamHandshake(connection) }
    }

    func upstreamReadable(_ upstream: UpstreamConnection) {
        guard upstream === self.upstream else { return }
        if case .initialising(let progress) = state { return upstreamHandshakeReadable(upstream, progress) }
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
        if case .initialising = state, upstream === self.upstream { return sendUpstreamHandshake(upstream) }
        guard upstream === self.upstream, upstream.flush() else { return }
        connection.updateInterest()
        if !connection.input.isEmpty { relayFromClient() }
    }

    func upstreamFailed(_ upstream: UpstreamConnection, _ failure: UpstreamFailure) {
        guard upstream === self.upstream else { return }
        if case .initialising(let progress) = state { return upstreamHandshakeFailed(progress) }
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
        case .initialising, .closed:
            break
        }
    }
}
