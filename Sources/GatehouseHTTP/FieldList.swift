/// The items of a comma-separated field value (RFC 9110 §5.6.1 lists), each without the spaces
/// and tabs around it; empty items are skipped. Walked in place, without an array of slices:
/// cached routes read `Cache-Control` and `If-None-Match` this way on every request.
public enum FieldList {
    /// The lines of one field as one value (RFC 9110 §5.3): `first`, then each of `later`, joined
    /// with ", ". A single line is its own slice of `bytes`, with nothing copied.
    public static func joined(_ bytes: [UInt8], first: Range<Int>, later: [Range<Int>]) -> ArraySlice<UInt8> {
        guard !later.isEmpty else { return bytes[first] }
        var joined = Array(bytes[first])
        for line in later {
            joined.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")])
            joined.append(contentsOf: bytes[line])
        }
        return joined[...]
    }

    /// Calls `visit` with each item, in order, until it returns false.
    public static func forEachItem(in value: ArraySlice<UInt8>, _ visit: (ArraySlice<UInt8>) -> Bool) {
        var start = value.startIndex
        while start < value.endIndex {
            let end = value[start...].firstIndex(of: UInt8(ascii: ",")) ?? value.endIndex
            var first = start
            var last = end
            while first < last, isSpace(value[first]) { first += 1 }
            while last > first, isSpace(value[last - 1]) { last -= 1 }
            if first < last, !visit(value[first..<last]) { return }
            start = end < value.endIndex ? end + 1 : end
        }
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
