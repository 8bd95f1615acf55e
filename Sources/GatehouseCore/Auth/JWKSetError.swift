/// Why a JWK Set file cannot be used; every problem at once, each naming the key (`keys[2]`).
public struct JWKSetError: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [String]

    public init(_ problems: [String]) { self.problems = problems }

    public var description: String { problems.joined(separator: "; ") }
}
