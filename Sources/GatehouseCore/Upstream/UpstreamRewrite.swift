/// How the operation policy changes the request on its way upstream (README, "Persisted operations"): a call by name
/// becomes a POST of the stored document, an AEM call a GET of its persisted-query URL, and a
/// body read for inspection is sent with a Content-Length.
struct UpstreamRewrite {
    /// Replaces the client's method.
    var method: [UInt8]?
    /// Replaces the upstream path and the client's query string.
    var target: [UInt8]?
    /// Replaces the client's query string (empty: none); the path stays the route's.
    var query: [UInt8]?
    /// The body to send (with a Content-Length); nil with `dropsBody` sends none.
    var body: [UInt8]?
    /// The body is JSON the gateway wrote: the client's Content-Type is replaced.
    var contentTypeJSON = false
    var dropsBody = false
}
