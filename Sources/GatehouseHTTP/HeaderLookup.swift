/// Header lookups shared by `RequestHead` and `ResponseHead`; both keep their fields as ranges
/// into one byte copy of the head.
enum HeaderLookup {
    /// The value of the first field named `lowercaseName` (any case on the wire).
    static func firstValue(in bytes: [UInt8], _ headers: [HeaderField], named lowercaseName: StaticString) -> Range<Int>? {
        bytes.withUnsafeBytes { raw in
            for field in headers where HeaderNames.asciiCaseInsensitiveEquals(rebased(raw, field.name), lowercaseName) {
                return field.value
            }
            return nil
        }
    }

    /// Every field named `lowercaseName` as one value: the lines joined with ", " in order, as a
    /// recipient must read a list-valued field sent in several lines (RFC 9110 §5.3). One line
    /// is its own slice, with nothing copied; nil when there is none.
    static func combinedValue(in bytes: [UInt8], _ headers: [HeaderField], named lowercaseName: StaticString) -> ArraySlice<UInt8>? {
        var first: Range<Int>?
        var later: [Range<Int>] = []
        bytes.withUnsafeBytes { raw in
            for field in headers where HeaderNames.asciiCaseInsensitiveEquals(rebased(raw, field.name), lowercaseName) {
                if first == nil { first = field.value } else { later.append(field.value) }
            }
        }
        return first.map { FieldList.joined(bytes, first: $0, later: later) }
    }

    /// How many fields are named `lowercaseName` (any case on the wire).
    static func count(in bytes: [UInt8], _ headers: [HeaderField], named lowercaseName: StaticString) -> Int {
        bytes.withUnsafeBytes { raw in
            var total = 0
            for field in headers where HeaderNames.asciiCaseInsensitiveEquals(rebased(raw, field.name), lowercaseName) {
                total += 1
            }
            return total
        }
    }

    /// True when `field` must not be forwarded: hop-by-hop by definition or named in `Connection`.
    static func isHopByHop(in bytes: [UInt8], _ field: HeaderField, connectionOptions: [Range<Int>]) -> Bool {
        bytes.withUnsafeBytes { raw in isHopByHop(rebased(raw, field.name), in: raw, connectionOptions: connectionOptions) }
    }

    /// `name` (a field's name within `raw`) is hop-by-hop, or among the `connectionOptions` of `raw`.
    @inline(__always)
    static func isHopByHop(_ name: UnsafeRawBufferPointer, in raw: UnsafeRawBufferPointer, connectionOptions: [Range<Int>]) -> Bool {
        if HopByHop.isHopByHop(name) { return true }
        for option in connectionOptions where HeaderNames.asciiCaseInsensitiveEquals(name, rebased(raw, option)) {
            return true
        }
        return false
    }

    @inline(__always)
    static func rebased(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: raw[range])
    }
}
