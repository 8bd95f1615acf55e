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

extension HeaderField {
    /// Whether the field's line in `head` reads exactly "Name: value\r\n", as servers write
    /// them: then the line can be copied whole (`line`) rather than rebuilt from its parts.
    @inlinable @inline(__always)
    public func isWrittenPlainly(in head: UnsafeRawBufferPointer) -> Bool {
        let colon = name.upperBound
        let lineEnd = value.upperBound
        return value.lowerBound == colon + 2 && lineEnd + 2 <= head.count
            && head[colon] == UInt8(ascii: ":") && head[colon + 1] == UInt8(ascii: " ")
            && head[lineEnd] == 0x0D && head[lineEnd + 1] == 0x0A
    }

    /// The field's whole line with its CRLF, for a field written plainly.
    @inlinable @inline(__always)
    public var line: Range<Int> { name.lowerBound..<value.upperBound + 2 }
}
