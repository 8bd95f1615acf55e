import GatehouseHTTP
import GatehouseIO
import Glibc

/// Turning input bytes into requests.
extension ClientConnection {
    /// Parses the next request head from `input` and starts its exchange.
    func processInput() {
        guard state == .awaitingHead, !input.isEmpty else { return }
        let snapshot = worker.snapshot
        if headStartedAt == 0 {
            headStartedAt = loop.now
            setDeadline(loop.now + snapshot.headerTimeoutNanos)
        }
        let parser = RequestHeadParser(limits: snapshot.limits)
        switch parser.parse(input.readable, scanned: &scanned) {
        case .incomplete:
            if peerHalfClosed { return close() }  // the rest of this head will never come
            updateInterest()
        case .invalid(let error):
            let kind: GatewayError.Kind
            switch error.kind {
            case .badRequest: kind = .badRequest
            case .uriTooLong: kind = .uriTooLong
            case .headersTooLarge: kind = .headersTooLarge
            }
            respondWithoutExchange(GatewayError(kind, error.reason))
        case .complete(let head, let consumed):
            input.consume(consumed)
            worker.buffers.fill(&output)
            state = .exchanging
            let exchange = Exchange(connection: self, head: head, snapshot: snapshot,
                                    requestID: worker.requestID(for: head), headBytes: consumed)
            self.exchange = exchange
            exchange.run()
        }
    }

    /// Answers a request that never became an exchange (unparseable head, head timeout) and
    /// closes: after such a failure the stream's framing cannot be trusted.
    func respondWithoutExchange(_ error: GatewayError) {
        let requestID = worker.makeRequestID()
        let mapping = ErrorEnvelope.mapping(for: error.kind)
        worker.buffers.fill(&output)
        state = .exchanging
        // A refused HEAD request gets no body, or the client would read it as a next response.
        let headRequest = input.readableCount >= 5 && memcmp(input.readable.baseAddress!, "HEAD ", 5) == 0
        input.clear()
        ErrorEnvelope.render(error, requestID: requestID, keepAlive: false, headRequest: headRequest, into: &output)
        worker.routeMetrics(for: nil).record(status: mapping.status, micros: Int((loop.now - headStartedAt) / 1000))
        if worker.accessLog.isEnabled {
            worker.accessLog.write(AccessRecord(
                requestID: requestID, method: UnsafeRawBufferPointer(start: nil, count: 0),
                path: UnsafeRawBufferPointer(start: nil, count: 0), route: nil, status: mapping.status,
                upstreamStatus: nil, durationNanos: loop.now - headStartedAt, upstreamNanos: nil, bytesIn: 0,
                bytesOut: output.readableCount, client: client.text, errorCode: mapping.code.description, subject: nil))
        }
        closeAfterResponse = true
        setDeadline(loop.now + 5_000_000_000)
        flushOutput()
    }
}
