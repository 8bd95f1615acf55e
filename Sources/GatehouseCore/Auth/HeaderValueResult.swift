/// A claim rendered for an upstream request header (`claims_to_headers`).
public enum HeaderValueResult: Sendable, Equatable {
    /// Printable ASCII bytes (0x20–0x7E), safe to write into a header as they are.
    case value([UInt8])
    /// The token has no such claim (or it is null): no header is set.
    case absent
    /// The claim cannot be a header value (control or non-ASCII bytes, or an array/object): the
    /// caller refuses the token with `invalidClaim`, so nothing can smuggle a header through.
    case refused
}
