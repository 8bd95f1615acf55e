/// The deadlines of one request, kept apart from any clock so that each timeout is a table row
/// on a manual clock: `body_timeout` while the request body is read, the route `timeout` from
/// the moment the gateway forwards (covering connect, send, wait and the whole response), and
/// the slow-body check of streamed bodies (`server.min_body_rate`), and for a streamed response
/// (SSE, multipart/mixed) the route's `stream_idle_timeout` in place of its `timeout`.
struct ExchangeDeadlines: Equatable {
    /// Monotonic nanoseconds; 0 = not armed.
    var body: UInt64 = 0
    var route: UInt64 = 0
    var bodyRate: UInt64 = 0
    /// Moved on by every chunk of a streamed response; the timer is not re-armed for each (it
    /// finds the deadline moved when it fires and is set again).
    var streamIdle: UInt64 = 0

    /// What a deadline that came due means for the request.
    enum Expiry: Equatable {
        /// The request body did not arrive within `body_timeout`.
        case body
        /// A streamed body arrives slower than `min_body_rate`.
        case bodyRate
        /// The route timeout passed while waiting for a pooled connection.
        case poolWait
        /// The route timeout passed while the upstream was connecting, sent to or answering.
        case upstream
        /// The route timeout passed after the response began: only an abort is left.
        case response
        /// A streamed response stayed silent for `stream_idle_timeout`: it is ended.
        case streamIdle
    }

    /// What the request is doing when a deadline is looked at.
    struct Activity: Equatable {
        var readingBody = false
        var waitingForPool = false
        var responseStarted = false
        /// A streamed response flows: exempt from the route timeout, held to the idle one.
        var streaming = false
    }

    /// The earliest armed deadline that matters now, 0 if none.
    func next(_ activity: Activity) -> UInt64 {
        var earliest = activity.streaming ? streamIdle : route
        if activity.readingBody {
            earliest = Self.earlier(earliest, body)
            earliest = Self.earlier(earliest, bodyRate)
        }
        return earliest
    }

    private static func earlier(_ a: UInt64, _ b: UInt64) -> UInt64 {
        if a == 0 { return b }
        if b == 0 { return a }
        return min(a, b)
    }

    /// The deadline that has passed at `now`, if one has. The body deadlines win over the route's:
    /// a client that stops sending is the client's failure (408), not the upstream's.
    func expired(at now: UInt64, _ activity: Activity) -> Expiry? {
        if activity.readingBody {
            if body != 0 && now >= body { return .body }
            if bodyRate != 0 && now >= bodyRate { return .bodyRate }
        }
        if activity.streaming { return streamIdle != 0 && now >= streamIdle ? .streamIdle : nil }
        guard route != 0 && now >= route else { return nil }
        if activity.responseStarted { return .response }
        return activity.waitingForPool ? .poolWait : .upstream
    }
}
