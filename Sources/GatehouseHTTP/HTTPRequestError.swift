/// Why a request head was refused. The connection layer answers it with the matching error
/// envelope and closes the connection.
public struct HTTPRequestError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Malformed syntax or framing -> 400.
        case badRequest
        /// Request line over `maxRequestLine` -> 414.
        case uriTooLong
        /// Header section over `maxHeaderBytes` or `maxHeaders` -> 431.
        case headersTooLarge
    }

    public var kind: Kind
    /// A short English sentence for the error envelope. It never quotes received bytes.
    public var reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    static func badRequest(_ reason: String) -> HTTPRequestError {
        HTTPRequestError(.badRequest, reason)
    }
}
