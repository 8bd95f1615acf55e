/// One header line of a parsed head, as byte ranges into that head's `bytes`.
public struct HeaderField: Sendable, Equatable {
    /// The field name exactly as received (case preserved).
    public var name: Range<Int>
    /// The field value with leading and trailing whitespace removed; may be empty.
    public var value: Range<Int>

    public init(name: Range<Int>, value: Range<Int>) {
        self.name = name
        self.value = value
    }
}
