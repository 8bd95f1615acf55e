/// Who a request was authenticated as, for limits keyed by it: the provider that accepted the
/// credentials and what identifies the caller within it.
enum AuthenticatedIdentity {
    /// `auth: none`, or nothing authenticated yet.
    case anonymous
    /// A verified JWT; `subject` is its `sub` claim (nil when the token has none).
    case token(provider: String, subject: String?)
    /// An accepted API key: where its value lies in the request head (it is hashed before it
    /// is used as a key, never kept).
    case apiKey(provider: String, value: Range<Int>)
}
