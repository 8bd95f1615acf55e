import GatehouseHTTP

/// Body framing, before anything else looks at the request. The declared Content-Length meets
/// `max_body_bytes` in the route phase (a route may raise or lower the server's limit), still
/// before a byte of the body is read.
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

    /// `max_body_bytes` (the route's, else the server's) on the declared Content-Length, once the
    /// route is known; chunked bodies are counted as they arrive (`Exchange+RequestBody.swift`).
    static func checkDeclaredLength(_ exchange: Exchange) -> GatewayError? {
        guard case .contentLength(let length) = exchange.head.framing, length > exchange.maxBodyBytes else { return nil }
        exchange.keepAlive = false
        return GatewayError(.payloadTooLarge, "The request body is larger than the gateway accepts.")
    }
}
