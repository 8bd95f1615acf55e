/// Reads the whole request body before an upstream connection is taken (README, "Request
/// bodies and slow clients"), so a slow client never holds one and a malformed chunked body
/// never reaches one. Routes with `request_buffering: false` stream instead, and so do uploads
/// (their preamble was read and checked by `UploadPreamblePhase`).
enum BodyBufferingPhase {
    static func run(_ exchange: Exchange) -> PhaseResult {
        guard !exchange.requestSide.isComplete else { return .next }
        if exchange.route?.streamsRequestBody == true || exchange.upload != nil { return .next }
        // A Content-Length body already received whole leaves with the head, uncopied.
        if exchange.takeBodyFromInputIfComplete() { return .next }
        return .wait(.requestBody)
    }
}
