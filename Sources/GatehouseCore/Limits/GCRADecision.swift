/// What one limit decided about one request.
public struct GCRADecision: Sendable, Equatable {
    public var allowed: Bool
    /// Requests that would still pass right after this one (r in `RateLimit`).
    public var remaining: Int
    /// Whole seconds until the full burst is available again (t in `RateLimit`), rounded up.
    public var resetSeconds: Int
    /// For a refusal: whole seconds until a request would pass (`Retry-After`), rounded up, at
    /// least 1. Zero when allowed.
    public var retryAfterSeconds: Int

    public init(allowed: Bool, remaining: Int, resetSeconds: Int, retryAfterSeconds: Int) {
        self.allowed = allowed
        self.remaining = remaining
        self.resetSeconds = resetSeconds
        self.retryAfterSeconds = retryAfterSeconds
    }
}
