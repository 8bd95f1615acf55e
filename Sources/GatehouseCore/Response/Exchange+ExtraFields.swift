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
}
