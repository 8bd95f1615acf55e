/// Strict RFC 8259 JSON reading over bytes: no trailing commas, comments, leading zeros, lone
/// surrogates, raw control characters or invalid UTF-8; only SP/HT/LF/CR as whitespace; nothing
/// but whitespace after the value.
public struct JSONReader {
    /// Parses one complete document.
    /// - Parameters:
    ///   - maxDepth: the deepest nesting of arrays/objects accepted (a guard against nesting bombs).
    ///   - rejectDuplicateKeys: refuse an object that names the same key twice (security-relevant
    ///     documents such as JOSE headers, where two readers could otherwise disagree).
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 64,
                             rejectDuplicateKeys: Bool = false) throws(JSONError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth, rejectDuplicateKeys: rejectDuplicateKeys)
        return try parser.parseDocument()
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = 64,
                             rejectDuplicateKeys: Bool = false) throws(JSONError) -> JSONValue {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONError) -> JSONValue in
                try parse(buffer, maxDepth: maxDepth, rejectDuplicateKeys: rejectDuplicateKeys)
            }
        }
        return try result.get()
    }

    public static func parse(_ text: String, maxDepth: Int = 64,
                             rejectDuplicateKeys: Bool = false) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth, rejectDuplicateKeys: rejectDuplicateKeys)
    }
}
