import GatehouseHTTP

/// Reads requests off one connection's bytes: the head with `RequestHeadParser`, then the body
/// by its Content-Length or with `ChunkedDecoder`. Pure and incremental: it is handed the
/// unread bytes each time more arrive, says how many it used, and gives the same answers
/// whatever the split.
struct DemoRequestReader {
    enum Step {
        /// A whole request; `consumed` bytes (of this call's buffer) belong to it.
        case request(DemoRequest, consumed: Int)
        /// The consumed bytes were used; call again with the rest plus more input.
        case needMore(consumed: Int)
        /// The request cannot be read: answer this, then close.
        case refused(DemoResponse)
    }

    /// The demo takes small GraphQL bodies; larger ones are refused with 413.
    static let maxBodyBytes = 8 * 1024 * 1024

    private enum State {
        case head(scanned: Int)
        case body(RequestHead, Body)
    }

    private enum Body {
        case length(remaining: Int)
        case chunked(ChunkedDecoder)
    }

    private let parser = RequestHeadParser(limits: HTTPLimits())
    private var state = State.head(scanned: 0)
    private var body: [UInt8] = []
    /// Set when a head asking for `100 Continue` has been read and its body is still to come.
    private(set) var wantsContinue = false

    mutating func continueSent() { wantsContinue = false }

    mutating func read(_ buffer: UnsafeRawBufferPointer) -> Step {
        var consumed = 0
        while true {
            let rest = UnsafeRawBufferPointer(rebasing: buffer[consumed...])
            switch state {
            case .head(var scanned):
                switch parser.parse(rest, scanned: &scanned) {
                case .incomplete:
                    state = .head(scanned: scanned)
                    return .needMore(consumed: consumed)
                case .invalid(let error):
                    return .refused(.error(status: Self.status(of: error), error.reason))
                case .complete(let head, let headBytes):
                    consumed += headBytes
                    switch head.framing {
                    case .none, .contentLength(0):
                        return finish(head, consumed: consumed)
                    case .contentLength(let length):
                        guard length <= Self.maxBodyBytes else { return Self.tooLarge }
                        state = .body(head, .length(remaining: length))
                    case .chunked:
                        state = .body(head, .chunked(ChunkedDecoder()))
                    }
                    wantsContinue = head.expectContinue
                }
            case .body(let head, .length(let remaining)):
                let taken = min(remaining, rest.count)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<taken]))
                consumed += taken
                guard taken == remaining else {
                    state = .body(head, .length(remaining: remaining - taken))
                    return .needMore(consumed: consumed)
                }
                return finish(head, consumed: consumed)
            case .body(let head, .chunked(var decoder)):
                let step = decoder.decode(rest)
                state = .body(head, .chunked(decoder))
                switch step {
                case .data(let range, let used):
                    guard body.count + range.count <= Self.maxBodyBytes else { return Self.tooLarge }
                    body.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[range]))
                    consumed += used
                case .needMore(let used):
                    return .needMore(consumed: consumed + used)
                case .end(let used):
                    return finish(head, consumed: consumed + used)
                case .invalid(let reason):
                    return .refused(.error(status: 400, reason))
                }
            }
        }
    }

    private mutating func finish(_ head: RequestHead, consumed: Int) -> Step {
        let request = DemoRequest(head: head, body: body)
        body = []
        state = .head(scanned: 0)
        wantsContinue = false
        return .request(request, consumed: consumed)
    }

    private static let tooLarge = Step.refused(.error(status: 413, "The request body is too large for the demo backend."))

    private static func status(of error: HTTPRequestError) -> Int {
        switch error.kind {
        case .badRequest: 400
        case .uriTooLong: 414
        case .headersTooLarge: 431
        }
    }
}
