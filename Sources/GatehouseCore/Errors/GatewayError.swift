/// A failure the gateway answers itself. It carries where it came from, what kind it is and
/// whether a retry is safe; `ErrorEnvelope` is the one place that turns it into a status and body.
public struct GatewayError: Error, Sendable, Equatable {
    public enum Source: String, Sendable {
        case gateway
        case upstream
    }

    public enum Kind: Sendable, Equatable {
        case badRequest
        case unauthenticated
        case forbidden
        case operationNotAllowed
        case notFound
        case methodNotAllowed(allow: [String])
        case requestTimeout
        case payloadTooLarge
        case uriTooLong
        case rateLimited(retryAfterSeconds: Int?)
        case headersTooLarge
        case upstreamError(upstreamStatus: Int?)
        case unavailable
        case upstreamTimeout
        case internalError
        /// Apollo's APQ miss: HTTP 200 with `PersistedQueryNotFound`.
        case persistedQueryNotFound
    }

    public var kind: Kind
    /// A short English sentence; never a token, a secret or an upstream's raw body.
    public var message: String
    public var source: Source
    /// For 401s: the `WWW-Authenticate` challenge's `error_description`, when credentials were
    /// present but refused (nil: credentials were missing).
    public var invalidTokenDescription: String?

    public init(_ kind: Kind, _ message: String, source: Source = .gateway,
                invalidTokenDescription: String? = nil) {
        self.kind = kind
        self.message = message
        self.source = source
        self.invalidTokenDescription = invalidTokenDescription
    }
}
