/// The close codes the gateway sends (RFC 6455 §7.4.1 and the 4000–4999 private range, whose
/// HTTP-like values graphql-transport-ws clients understand).
public enum WebSocketCloseCode {
    public static let normal: UInt16 = 1000
    public static let goingAway: UInt16 = 1001
    public static let protocolError: UInt16 = 1002
    /// Never sent: stands for a close frame without a code (counted in metrics).
    public static let noStatus: UInt16 = 1005
    /// Never sent: stands for a connection that ended without a close frame.
    public static let abnormalClosure: UInt16 = 1006
    public static let messageTooBig: UInt16 = 1009
    public static let upstreamFailed: UInt16 = 1011
    /// The credentials cannot be judged yet (the identity provider's keys are not fetched): the
    /// client may retry, as with the 503 a handshake would get.
    public static let tryAgainLater: UInt16 = 1013
    /// graphql-transport-ws: the first message was not a `connection_init`.
    public static let badRequest: UInt16 = 4400
    public static let unauthenticated: UInt16 = 4401
    /// Forbidden, or the verified token expired while the socket was open.
    public static let forbidden: UInt16 = 4403
    public static let initTimeout: UInt16 = 4408
}
