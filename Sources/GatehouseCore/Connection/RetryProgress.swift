/// An exchange's tries across an upstream's endpoints (README, "Upstream endpoints and resilience").
struct RetryProgress {
    /// Tries so far, the current one included.
    var attempts = 1
    /// The endpoint the exchange counts as in flight on; nil before the forward and after the end.
    var endpoint: UpstreamEndpoint?
    /// The request as first queued (head, and a body that was not buffered), kept only for a
    /// request known to be safe on an upstream that retries after bytes were sent.
    var resendPayload: [UInt8]?
}
