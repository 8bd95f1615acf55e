/// A refused credential: the reason, and optionally a more precise fixed text (e.g. "token has no
/// exp claim"). Neither ever contains any part of the token.
public struct AuthFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: AuthFailureReason
    /// A fixed text from the verifier that narrows the reason down; no `"` or `\`.
    public var detail: String?

    public init(_ reason: AuthFailureReason, detail: String? = nil) {
        self.reason = reason
        self.detail = detail
    }

    /// The text for `error_description`.
    public var description: String { detail ?? reason.description }
}
