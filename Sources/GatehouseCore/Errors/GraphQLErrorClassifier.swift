import GatehouseGraphQL

/// Recognises upstream 200 responses that are nothing but a GraphQL authentication or
/// authorization error (README, "Configuration" `map_graphql_errors`): a JSON object with an `errors` array, no
/// non-null `data`, and an error whose message is exactly "Unauthorized" or "Unauthenticated"
/// or whose `extensions.code` is `UNAUTHENTICATED` or `FORBIDDEN`. The first such error decides.
///
/// It runs on every response of such routes, so it refuses cheaply before parsing anything:
/// bodies over 64 KiB, bodies not starting with `{`, bodies with a `"data"` member that is not
/// `null` anywhere, and bodies that do not even contain one of the four words.
public enum GraphQLErrorClassifier {
    public static let maxBodyBytes = 64 * 1024

    public static func classify(_ body: UnsafeRawBufferPointer) -> GraphQLAuthErrorClass? {
        guard body.count <= maxBodyBytes, startsWithObject(body), !hasNonNullData(body),
              contains(body, "\"errors\""),
              contains(body, "Unauthorized") || contains(body, "Unauthenticated")
                || contains(body, "UNAUTHENTICATED") || contains(body, "FORBIDDEN"),
              let document = try? JSONReader.parse(body, maxDepth: 32),
              let object = document.objectValue,
              object["data"]?.isNull ?? true,
              let errors = object["errors"]?.arrayValue else {
            return nil
        }
        for error in errors {
            guard let error = error.objectValue else { continue }
            let message = error["message"]?.stringValue ?? ""
            if message == "Unauthorized" || message == "Unauthenticated" {
                return .unauthenticated(message: message)
            }
            switch error["extensions"]?["code"]?.stringValue {
            case "UNAUTHENTICATED": return .unauthenticated(message: message)
            case "FORBIDDEN": return .forbidden(message: message)
            default: continue
            }
        }
        return nil
    }

    public static func classify(_ body: [UInt8]) -> GraphQLAuthErrorClass? {
        body.withUnsafeBytes { classify($0) }
    }

    // MARK: - Quick scans

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func startsWithObject(_ body: UnsafeRawBufferPointer) -> Bool {
        guard let first = body.first(where: { !isWhitespace($0) }) else { return false }
        return first == UInt8(ascii: "{")
    }

    /// True when some `"data"` key (at any depth; a string value cannot contain an unescaped
    /// quote, so every match is a key or a whole string) is followed by a value other than `null`.
    /// Over-approximates on purpose: a false positive only leaves a response unmapped.
    /// A `"data"` member whose value is not `null` appears: a response with data, never only an error.
    static func hasNonNullData(_ body: UnsafeRawBufferPointer) -> Bool {
        let needle: StaticString = "\"data\""
        var from = 0
        while let match = firstIndex(of: needle, in: body, from: from) {
            var index = match + needle.utf8CodeUnitCount
            while index < body.count, isWhitespace(body[index]) { index += 1 }
            from = match + 1
            guard index < body.count, body[index] == UInt8(ascii: ":") else { continue }
            index += 1
            while index < body.count, isWhitespace(body[index]) { index += 1 }
            let isNull = index + 4 <= body.count && body[index] == UInt8(ascii: "n")
                && body[index + 1] == UInt8(ascii: "u") && body[index + 2] == UInt8(ascii: "l")
                && body[index + 3] == UInt8(ascii: "l")
            if !isNull { return true }
        }
        return false
    }

    private static func contains(_ body: UnsafeRawBufferPointer, _ needle: StaticString) -> Bool {
        firstIndex(of: needle, in: body, from: 0) != nil
    }

    private static func firstIndex(of needle: StaticString, in body: UnsafeRawBufferPointer, from start: Int) -> Int? {
        let count = needle.utf8CodeUnitCount
        guard count > 0, body.count >= count else { return nil }
        return needle.withUTF8Buffer { pattern -> Int? in
            let first = pattern[0]
            var index = start
            let last = body.count - count
            while index <= last {
                if body[index] == first {
                    var offset = 1
                    while offset < count, body[index + offset] == pattern[offset] { offset += 1 }
                    if offset == count { return index }
                }
                index += 1
            }
            return nil
        }
    }
}
