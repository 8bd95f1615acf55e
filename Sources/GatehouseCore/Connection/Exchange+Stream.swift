import GatehouseHTTP

/// A streamed response (SSE, multipart/mixed): once its head is out the connection is in
/// `stream` mode, the route `timeout` no longer applies and `stream_idle_timeout` ends a silent
/// stream. Bytes are forwarded as they arrive by the ordinary response pump (never gzipped:
/// `ResponseCompression` skips these types).
extension Exchange {
    func beginStream() {
        guard let route else { return }
        connection.enterMode(.stream)
        deadlines.route = 0
        deadlines.streamIdle = loop.now + route.streamIdleTimeoutNanos
        armDeadline()
    }

    /// Every chunk moves the idle deadline on; the armed timer finds it moved when it fires.
    @inline(__always)
    func streamChunkArrived() {
        guard deadlines.streamIdle != 0, let route else { return }
        deadlines.streamIdle = loop.now + route.streamIdleTimeoutNanos
    }

    /// Ends a stream that stayed silent: a chunked one cleanly with its last chunk when no chunk
    /// is half sent, a close-delimited one by closing (its normal end); otherwise (a length not
    /// reached, a chunk cut) the connection is reset so the client cannot take it for whole.
    func endSilentStream() {
        cancelWait()
        dropUpstream()
        keepAlive = false
        errorCode = Self.streamIdleCode
        switch responseBody {
        case .chunked(let decoder, verbatim: true) where decoder.isBetweenChunks:
            connection.output.append(ChunkedEncoder.lastChunk)
        case .untilClose:
            break
        default:
            return finish(aborted: true)
        }
        stage = .responded
        connection.flushOutput()
    }

    /// The access log's error code for a stream ended by `stream_idle_timeout`.
    static let streamIdleCode = "STREAM_IDLE_TIMEOUT"
}
