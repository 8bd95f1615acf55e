/// The path rules, then the most specific route, then the route's methods (README, "Routing").
/// Routing happens on the exact bytes that will be forwarded.
enum RoutePhase {
    static func run(_ exchange: Exchange) -> PhaseResult {
        // The head is read through the exchange, not copied into a local the closure would
        // capture (a copy retains each of its arrays).
        exchange.head.bytes.withUnsafeBytes { raw -> PhaseResult in
            let path = UnsafeRawBufferPointer(rebasing: raw[exchange.head.path])
            if let problem = PathValidator.problem(in: path) {
                exchange.keepAlive = false
                return .respond(GatewayError(.badRequest, problem))
            }
            guard let route = exchange.snapshot.router.match(path) else {
                return .respond(GatewayError(.notFound, "No route matches this path."))
            }
            exchange.route = route
            guard route.allows(method: UnsafeRawBufferPointer(rebasing: raw[exchange.head.method])) else {
                return .respond(GatewayError(.methodNotAllowed(allow: route.allow), "This method is not allowed on this route."))
            }
            if let refusal = FramingPhase.checkDeclaredLength(exchange) { return .respond(refusal) }
            if let config = route.webSocket, let refusal = exchange.prepareWebSocket(config) { return .respond(refusal) }
            if exchange.head.framing != .none, let refusal = UploadGate.check(exchange, route) { return .respond(refusal) }
            return .next
        }
    }
}
