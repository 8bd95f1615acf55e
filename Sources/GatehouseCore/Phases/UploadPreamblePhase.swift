/// Uploads (README, "Uploads"): before an upstream is taken, the body is read as far as the end
/// of its `map` part (held, bounded), and `operations` passes the route's operation policy, so a
/// refused upload never reaches the upstream. The rest of the body then streams, whatever the
/// route's `request_buffering` says: an upload is never held whole.
enum UploadPreamblePhase {
    static func run(_ exchange: Exchange) -> PhaseResult {
        guard let upload = exchange.upload, let route = exchange.route else { return .next }
        guard upload.isPreambleRead else { return .wait(.requestBody) }
        let manifest = upload.manifest
        if let refusal = route.operationPolicy.refusal(forUploadOperations: manifest.operations,
                                                       parsed: manifest.operationsValue,
                                                       registry: exchange.snapshot.registry) {
            return .respond(refusal)
        }
        // The rest of the body streams from here, once the upstream is taken.
        if case .buffering(let framing) = exchange.requestSide { exchange.requestSide = .unread(framing) }
        return .next
    }
}
