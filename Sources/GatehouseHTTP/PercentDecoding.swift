/// `%XX` escapes in URL components: the one decoder for paths, query strings and persisted-query
/// URLs.
public enum PercentDecoding {
    /// One component with `%XX` decoded, and `+` as space when `plusIsSpace` (query strings, not
    /// paths); nil when an escape is malformed or the result is not UTF-8.
    public static func decode(_ component: ArraySlice<UInt8>, plusIsSpace: Bool = true) -> String? {
        guard component.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(validating: component, as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.count)
        var index = component.startIndex
        while index < component.endIndex {
            let byte = component[index]
            if plusIsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
                index += 1
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < component.endIndex,
                      let high = hexValue(component[index + 1]), let low = hexValue(component[index + 2]) else {
                    return nil
                }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The value of one hexadecimal digit, either case.
    @inline(__always)
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
