/// Why a TLS context could not be built or a TLS connection failed, as a sentence an operator can
/// act on ("certificate not trusted: unable to get local issuer certificate", "certificate expired",
/// "cannot read key file /etc/gatehouse/tls.key: No such file or directory").
public struct TLSError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
