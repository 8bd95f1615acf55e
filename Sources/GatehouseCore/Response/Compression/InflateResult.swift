/// What one `GzipInflater.inflate` call achieved.
public enum InflateResult: Equatable, Sendable {
    /// All input was used; more is needed to reach the end of the compressed body.
    case progress
    /// The compressed body ended (its checksum matched).
    case finished
    /// The body inflates to more than the limit; the output holds exactly `limit` bytes.
    case overLimit
    /// Not gzip/zlib data, corrupt, truncated, or followed by stray bytes.
    case invalid(String)
}
