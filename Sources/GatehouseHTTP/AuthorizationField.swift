/// Where a request's Authorization header lies, noted while the head is parsed so that
/// authentication needs no search of the fields. A request may carry several; the gateway
/// refuses that on authenticated routes (it would verify one while the upstream might read
/// another), so whether there are more is kept beside the first.
public struct AuthorizationField: Sendable, Equatable {
    /// The first Authorization field's value (trimmed), nil when there is none.
    public private(set) var value: Range<Int>?
    /// True when more than one Authorization field came.
    public private(set) var isRepeated = false

    public init() {}

    mutating func note(_ value: Range<Int>) {
        if self.value == nil {
            self.value = value
        } else {
            isRepeated = true
        }
    }
}
