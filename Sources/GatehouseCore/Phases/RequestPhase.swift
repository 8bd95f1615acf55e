/// The request phases in their fixed order (README, "Architecture"): what a request passes
/// through between its parsed head and the upstream. Each phase answers with a `PhaseResult`;
/// none touches a socket. The limit and cache slots pass every request on routes without
/// `rate_limit` or `cache`.
enum RequestPhase: Int, CaseIterable, Equatable {
    /// Body framing (no body on GET/HEAD, `Expect`).
    case framing
    /// Path rules, then the most specific route, its methods and its `max_body_bytes`.
    case route
    /// Rate limits keyed before authentication (`ip`, `header:`, `route`).
    case limitBeforeAuth
    case authenticate
    /// Rate limits keyed on who the caller is (`subject`, `api_key`).
    case limitAfterAuth
    /// Uploads: reads the multipart preamble (`operations`, `map`) and checks it against the
    /// route's operation policy before any upstream is taken; the files stream after it.
    case uploadPreamble
    /// Persisted operations, allow-lists, GET translation (reads the body when the route needs it).
    case operationPolicy
    case cache
    /// Reads the whole request body before an upstream connection is taken, unless the route
    /// streams (`request_buffering: false`).
    case bufferBody

    var following: RequestPhase? { RequestPhase(rawValue: rawValue + 1) }
}

/// A phase's verdict.
enum PhaseResult {
    /// Go on with the next phase.
    case next
    /// Answer with this error; nothing goes upstream.
    case respond(GatewayError)
    /// Not decided yet: resume when `Pending` completes.
    case wait(Pending)
    /// Answer from the response cache; nothing goes upstream.
    case serve(CachedReply)
}

/// What a waiting phase waits for.
enum Pending {
    /// The whole request body: the exchange reads it (memory, then a temporary file) and runs
    /// the phase again.
    case requestBody
    /// An answer from elsewhere on the worker's loop: a store reply, a key fetch, a cache fill.
    case answer(PendingAnswer)
}

/// A wait for something the worker's loop will deliver. The producer calls `complete(_:)` on the
/// loop's thread; the exchange calls `cancel()` when the client goes away or a deadline fires
/// first, and the producer's `onCancel` lets go of whatever it held.
///
/// It names the waiting exchange and phase rather than holding a closure: a wait is on the path
/// of every request of a route with a Redis limit or a cache, and a closure would be one more
/// allocation each time.
final class PendingAnswer {
    /// The exchange that waits, from `whenComplete` until the answer or a cancel. Not retained:
    /// an exchange outlives its waits, which it cancels when it ends early.
    private unowned(unsafe) var waiter: Exchange?
    private var phase = RequestPhase.framing
    /// Set by the producer: releases its side (a queued Redis command, a collapsed-fill slot).
    var onCancel: (() -> Void)?

    init() {}

    /// Called once by the exchange when it starts waiting in `phase`.
    func whenComplete(resuming waiter: Exchange, in phase: RequestPhase) {
        self.waiter = waiter
        self.phase = phase
    }

    var isWaiting: Bool { waiter != nil }

    /// The answer arrived; the phase's verdict is `result`. Ignored after a cancel.
    func complete(_ result: PhaseResult) {
        guard let waiter else { return }
        self.waiter = nil
        onCancel = nil
        waiter.answerArrived(result, in: phase)
    }

    func cancel() {
        waiter = nil
        let cancelled = onCancel
        onCancel = nil
        cancelled?()
    }
}
