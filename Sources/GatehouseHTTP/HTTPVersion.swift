/// The two protocol versions the gateway speaks on the wire.
public enum HTTPVersion: Sendable, Equatable {
    case http10
    case http11
}
