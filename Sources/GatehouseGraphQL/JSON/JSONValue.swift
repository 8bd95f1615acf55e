/// A parsed JSON document (RFC 8259). Numbers keep their exact lexeme so that large integers and
/// decimals survive a round trip unchanged; objects keep their members in document order.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number exactly as written, e.g. `"1.50e3"` or `"123456789012345678901234567890"`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

// MARK: - Accessors

extension JSONValue {
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The number's lexeme, for numbers.
    public var numberLexeme: String? {
        if case .number(let lexeme) = self { return lexeme }
        return nil
    }

    /// The number as a Double (nearest value; very large numbers become infinity), for numbers.
    public var doubleValue: Double? {
        if case .number(let lexeme) = self { return Double(lexeme) }
        return nil
    }

    /// The number as an Int64 when it is an integer lexeme that fits, for numbers.
    public var int64Value: Int64? {
        if case .number(let lexeme) = self { return Int64(lexeme) }
        return nil
    }

    /// The member `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}
