import GatehouseIO

/// The fields the gateway adds to the client's response head, whoever writes it (the upstream's
/// head, a cached entry, an error envelope): the cache's `Cache-Status` line and the
/// `RateLimit` fields of a limited route. The rate-limit fields are written from the decision
/// kept in `rateLimitProgress`, straight into the output, so a limited route's response costs no
/// block of its own.
extension Exchange {
    /// Appends complete "Name: value\r\n" lines to `out`.
    func appendExtraFields(to out: inout ByteBuffer) {
        cacheStatusLine?.write(to: &out)
        if let (limit, decision) = rateLimitProgress.closest { limit.appendFields(decision, to: &out) }
    }

    /// Ends a head the gateway writes for an upstream's or a cached answer: the extra fields, the
    /// request id, and whether the connection stays open (an HTTP/1.0 client is told so).
    func appendHeadEnd(keepAlive: Bool, to out: inout ByteBuffer) {
        appendExtraFields(to: &out)
        out.append("X-Request-Id: ")
        out.append(requestID)
        if !keepAlive {
            out.append("\r\nConnection: close\r\n\r\n")
        } else if head.version == .http10 {
            out.append("\r\nConnection: keep-alive\r\n\r\n")
        } else {
            out.append("\r\n\r\n")
        }
    }
}
