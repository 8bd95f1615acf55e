import GatehouseHTTP

/// Body framing against the gateway's limits, before anything else looks at the request:
/// `max_body_bytes` is checked on the declared Content-Length before a byte of the body is read.
enum FramingPhase {
    static func run(_ exchange: Exchange) -> PhaseResult {
        let head = exchange.head
        if head.unsupportedExpectation {
            exchange.keepAlive = false
            return .respond(GatewayError(.badRequest, "The Expect header has an unsupported value."))
        }
        switch head.framing {
        case .none, .contentLength(0):
            exchange.requestSide = .complete
        case .contentLength(let length):
            if head.methodKind == .get || head.methodKind == .head {
                exchange.keepAlive = false
                return .respond(GatewayError(.badRequest, "A GET or HEAD request cannot carry a body."))
            }
            if length > exchange.snapshot.maxBodyBytes {
                exchange.keepAlive = false
                return .respond(GatewayError(.payloadTooLarge, "The request body is larger than the gateway accepts."))
            }
            exchange.requestSide = .unread(.length(remaining: length))
        case .chunked:
            if head.methodKind == .get || head.methodKind == .head {
                exchange.keepAlive = false
                return .respond(GatewayError(.badRequest, "A GET or HEAD request cannot carry a body."))
            }
            exchange.requestSide = .unread(.chunked(ChunkedDecoder(), received: 0))
        }
        return .next
    }
}
