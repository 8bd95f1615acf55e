import GatehouseGraphQL

/// The canonical AEM persisted-query request path for a call by name (README, "Persisted operations"):
/// `/graphql/execute.json/<config>/<name>;k1=v1;k2=v2`, variables sorted by name (UTF-8 byte
/// order) so each call has exactly one URL, which is what CDN caches key on.
///
/// Names and values are percent-encoded (uppercase hex) except for RFC 3986 unreserved
/// characters, sub-delimiters other than `&`, `+`, `;`, `=`, and `:` `@`. So `;` `=` `/` `?`
/// `#` `%`, space, control bytes, `&` `+` `"` `\` `<` `>`, brackets and braces, and every
/// non-ASCII byte are encoded. String variables are sent as their text, other JSON values as
/// their compact JSON text.
public enum AEMPersistedQueryPath {
    public static func build(config: String, operationName: String, variables: JSONObject?) -> [UInt8] {
        var path: [UInt8] = []
        path.reserveCapacity(64 + config.utf8.count + operationName.utf8.count)
        path.append(contentsOf: "/graphql/execute.json/".utf8)
        for segment in config.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .enumerated() {
            if segment.offset > 0 { path.append(UInt8(ascii: "/")) }
            appendEncoded(segment.element, to: &path)
        }
        path.append(UInt8(ascii: "/"))
        appendEncoded(operationName.utf8, to: &path)
        for (name, value) in sortedVariables(variables) {
            path.append(UInt8(ascii: ";"))
            appendEncoded(name.utf8, to: &path)
            path.append(UInt8(ascii: "="))
            if let text = value.stringValue {
                appendEncoded(text.utf8, to: &path)
            } else {
                appendEncoded(value.serializedBytes, to: &path)
            }
        }
        return path
    }

    /// One member per name (the last, as lookups see it), in UTF-8 byte order of the names.
    private static func sortedVariables(_ variables: JSONObject?) -> [(name: String, value: JSONValue)] {
        guard let variables, !variables.isEmpty else { return [] }
        var latest: [String: JSONValue] = [:]
        for member in variables.members { latest[member.key] = member.value }
        return latest.map { (name: $0.key, value: $0.value) }
            .sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    // MARK: - Encoding

    static func appendEncoded<Bytes: Sequence<UInt8>>(_ bytes: Bytes, to output: inout [UInt8]) {
        let hexDigits: StaticString = "0123456789ABCDEF"
        for byte in bytes {
            if isKept(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                hexDigits.withUTF8Buffer { digits in
                    output.append(digits[Int(byte >> 4)])
                    output.append(digits[Int(byte & 0x0F)])
                }
            }
        }
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }
}
