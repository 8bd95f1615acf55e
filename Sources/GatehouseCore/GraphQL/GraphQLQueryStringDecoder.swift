/// Decodes `application/x-www-form-urlencoded` query strings (`&`-separated `name=value` pairs,
/// `+` as space, `%XX` escapes, UTF-8 text) and percent-encoded path segments.
enum GraphQLQueryStringDecoder {
    /// The pairs in order; empty pairs (`a=1&&b=2`) are skipped, a pair without `=` has value "".
    /// Fails on a malformed escape or on bytes that are not UTF-8 once decoded.
    static func pairs(_ query: ArraySlice<UInt8>) -> Result<[(name: String, value: String)], GatewayError> {
        var pairs: [(name: String, value: String)] = []
        for pair in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let separator = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = pair[pair.startIndex..<(separator ?? pair.endIndex)]
            let rawValue = separator.map { pair[pair.index(after: $0)...] } ?? []
            guard let name = decode(rawName), let value = decode(rawValue) else {
                return .failure(GatewayError(.badRequest, "Query string is not valid: bad percent-escape or UTF-8"))
            }
            pairs.append((name: name, value: value))
        }
        return .success(pairs)
    }

    /// One component with `%XX` decoded, and `+` as space when `plusIsSpace` (query strings, not
    /// paths); nil when malformed or not UTF-8.
    static func decode(_ component: ArraySlice<UInt8>, plusIsSpace: Bool = true) -> String? {
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

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
