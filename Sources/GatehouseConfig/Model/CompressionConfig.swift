/// `server.compression:` — gzip for responses to clients that accept it, and the limit on
/// inflating gzip-compressed upstream bodies the gateway must read.
public struct CompressionConfig: Sendable, Equatable {
    /// The media types compressed by default: text formats that shrink well. Images, archives and
    /// other already-compressed formats are left out on purpose.
    public static let defaultTypes = [
        "application/json", "application/graphql-response+json", "text/plain", "text/html", "text/css",
        "application/javascript",
    ]

    /// Responses are gzipped for clients that send `Accept-Encoding: gzip`.
    public var enabled = true
    /// zlib level, 1 (fastest) to 9 (smallest).
    public var level = 1
    /// Bodies smaller than this many bytes stay plain (gzip's own overhead is ~20 bytes).
    public var minSize = 1024
    /// Media types (`type/subtype`, lowercase, no parameters or wildcards) that are compressed;
    /// compared with the response's `Content-Type` without its parameters, case-insensitively.
    public var types: [String] = CompressionConfig.defaultTypes
    /// A gzip-compressed upstream body the gateway must read (GraphQL error mapping) that inflates
    /// beyond this many bytes is refused with 502. Applies whether or not `enabled` is set, since
    /// upstreams may compress for clients that asked them to.
    public var maxInflatedSize = 1 << 20

    public init() {}
}
