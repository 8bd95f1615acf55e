/// Why a configuration value was refused, as the message part of `path: message`.
/// Messages never quote a secret: callers that parse secrets word them without the value.
public struct ValueProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
