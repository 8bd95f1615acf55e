import GatehouseHTTP

/// Every failure the gateway answers itself, wherever it was found: what kind it is (which
/// decides the status and envelope code in `ErrorEnvelope`, the one mapping), where it came
/// from, the cause for the error log, and whether the request could safely be tried again.
public struct GatewayError: Error, Sendable, Equatable {
    /// Where the failure came from.
    public enum Source: String, Sendable {
        /// The client: malformed or refused requests, slow or vanished clients.
        case downstream
        /// The upstream: refused, reset, timed out, or answered with an error the gateway maps.
        case upstream
        /// The gateway itself (a bug, a full disk).
        case `internal`
    }

    /// Whether sending the request again could be harmful.
    public enum Retry: Sendable, Equatable {
        /// Nothing of the request reached an upstream.
        case safe
        /// Bytes may have reached an upstream: only idempotent requests may be repeated.
        case idempotentOnly
        /// The request itself is the problem; repeating it changes nothing.
        case never
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
        case cacheMiss
        case internalError
        /// Apollo's APQ miss: HTTP 200 with `PersistedQueryNotFound`.
        case persistedQueryNotFound
        /// The client went away before its answer: never sent, counted and logged as 499.
        case clientClosed
    }

    public var kind: Kind
    /// A short English sentence for the client; never a token, a secret or an upstream's raw body.
    public var message: String
    public var source: Source
    /// True when the upstream answered and this error stands for its answer (the envelope's
    /// `source` is then "upstream"); false when the gateway speaks for itself.
    public var mapsUpstreamAnswer: Bool
    public var retry: Retry
    /// What really happened, for the error log only (errno text, TLS reason).
    public var cause: String?
    /// For 401s: the `WWW-Authenticate` challenge's `error_description`, when credentials were
    /// present but refused (nil: credentials were missing).
    public var invalidTokenDescription: String?

    public init(_ kind: Kind, _ message: String, source: Source? = nil, retry: Retry? = nil,
                cause: String? = nil, invalidTokenDescription: String? = nil) {
        self.kind = kind
        self.message = message
        self.source = source ?? Self.usualSource(of: kind)
        mapsUpstreamAnswer = false
        self.retry = retry ?? (self.source == .upstream ? .idempotentOnly : .never)
        self.cause = cause
        self.invalidTokenDescription = invalidTokenDescription
    }

    /// The gateway's envelope for an upstream's own answer (a 401, a 429, an HTML error page).
    public static func upstreamAnswer(_ kind: Kind, _ message: String) -> GatewayError {
        var error = GatewayError(kind, message, source: .upstream, retry: .never)
        error.mapsUpstreamAnswer = true
        return error
    }

    /// A request head the parser refused.
    public init(parsing error: HTTPRequestError) {
        let kind: Kind
        switch error.kind {
        case .badRequest: kind = .badRequest
        case .uriTooLong: kind = .uriTooLong
        case .headersTooLarge: kind = .headersTooLarge
        }
        self.init(kind, error.reason, source: .downstream)
    }

    private static func usualSource(of kind: Kind) -> Source {
        switch kind {
        case .upstreamError, .upstreamTimeout: return .upstream
        case .internalError: return .internal
        default: return .downstream
        }
    }
}
