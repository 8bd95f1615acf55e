/// How the operation policy changes the request on its way upstream (README, "Persisted operations"): a call by name
/// becomes a POST of the stored document, an AEM call a GET of its persisted-query URL, and a
/// body read for inspection is sent with a Content-Length.
///
/// Immutable and a class: the prepared-call memo (`PreparedCallMemo`) hands the same rewrite to
/// every repeat of a call, which then costs one retain rather than one per array.
final class UpstreamRewrite: Sendable {
    /// Replaces the client's method.
    let method: [UInt8]?
    /// Replaces the upstream path and the client's query string.
    let target: [UInt8]?
    /// Replaces the client's query string (empty: none); the path stays the route's.
    let query: [UInt8]?
    /// The body to send (with a Content-Length); nil with `dropsBody` sends none.
    let body: [UInt8]?
    /// The body is JSON the gateway wrote: the client's Content-Type is replaced.
    let contentTypeJSON: Bool
    let dropsBody: Bool

    init(method: [UInt8]? = nil, target: [UInt8]? = nil, query: [UInt8]? = nil, body: [UInt8]? = nil,
         contentTypeJSON: Bool = false, dropsBody: Bool = false) {
        self.method = method
        self.target = target
        self.query = query
        self.body = body
        self.contentTypeJSON = contentTypeJSON
        self.dropsBody = dropsBody
    }

    /// This rewrite (or none) with the query string replaced.
    static func replacingQuery(of rewrite: UpstreamRewrite?, with query: [UInt8]) -> UpstreamRewrite {
        UpstreamRewrite(method: rewrite?.method, target: rewrite?.target, query: query, body: rewrite?.body,
                        contentTypeJSON: rewrite?.contentTypeJSON ?? false, dropsBody: rewrite?.dropsBody ?? false)
    }
}
