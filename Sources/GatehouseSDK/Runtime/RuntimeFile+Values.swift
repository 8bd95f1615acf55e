// Query parameters, JSON coding and JSON values.

extension RuntimeFile {
    static let queryParameters = RuntimeFile(name: "QueryParameters.swift", contents: #"""
    import Foundation

    /// A value the gateway can read from a query parameter: it types the text from the
    /// operation's own variable definitions (Int, Float, Boolean, String, ID, enums).
    protocol QueryParameterValue {
        var queryParameterText: String { get }
    }

    extension String: QueryParameterValue {
        var queryParameterText: String { self }
    }

    extension Int: QueryParameterValue {
        var queryParameterText: String { String(self) }
    }

    extension Double: QueryParameterValue {
        var queryParameterText: String { String(self) }
    }

    extension Bool: QueryParameterValue {
        var queryParameterText: String { self ? "true" : "false" }
    }

    /// The query string of a GET call by name: `genre=drama&limit=5`, lists as repeated keys,
    /// or everything in one `variables=` JSON parameter when a variable is not a plain value.
    struct QueryParameters: Sendable {
        private var pairs: [(name: String, value: String)] = []

        mutating func append(_ name: String, _ value: (some QueryParameterValue)?) {
            guard let value else { return }
            pairs.append((name, value.queryParameterText))
        }

        mutating func append(_ name: String, _ values: [some QueryParameterValue]?) {
            for value in values ?? [] { pairs.append((name, value.queryParameterText)) }
        }

        mutating func appendJSON(_ name: String, _ value: some Encodable) throws {
            let json = try JSONCoding.encoder().encode(value)
            pairs.append((name, String(decoding: json, as: UTF8.self)))
        }

        /// Percent-encoded: everything but RFC 3986 unreserved characters, so `+` and `&` in a
        /// value stay themselves.
        var encoded: String {
            pairs.map { QueryParameters.escape($0.name) + "=" + QueryParameters.escape($0.value) }
                .joined(separator: "&")
        }

        private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

        private static func escape(_ text: String) -> String {
            var escaped = ""
            for byte in text.utf8 {
                if unreserved.contains(byte) {
                    escaped.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    let hex = String(byte, radix: 16, uppercase: true)
                    escaped += "%" + (hex.count == 1 ? "0" : "") + hex
                }
            }
            return escaped
        }
    }
    """#)

    static let jsonCoding = RuntimeFile(name: "JSONCoding.swift", contents: #"""
    import Foundation

    /// JSON coders for requests and responses; `Date` travels as ISO 8601 text.
    enum JSONCoding {
        static func decoder() -> JSONDecoder {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .custom { decoder in
                let container = try decoder.singleValueContainer()
                let text = try container.decode(String.self)
                guard let date = ISO8601Text.date(from: text) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
                }
                return date
            }
            return decoder
        }

        static func encoder() -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(ISO8601Text.string(from: date))
            }
            return encoder
        }
    }

    /// ISO 8601 dates and timestamps: `2026-12-01T09:30:00Z`, with or without fractional seconds,
    /// or a date alone (`2026-12-01`, midnight UTC).
    enum ISO8601Text {
        static func date(from text: String) -> Date? {
            let formatter = ISO8601DateFormatter()
            for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds],
                                                          [.withInternetDateTime], [.withFullDate]] {
                formatter.formatOptions = options
                if let date = formatter.date(from: text) { return date }
            }
            return nil
        }

        static func string(from date: Date) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: date)
        }
    }
    """#)

    static let indirectInput = RuntimeFile(name: "IndirectInput.swift", contents: #"""
    /// Holds an input object inside one of its own fields (a filter's `_not`), which a struct
    /// cannot do directly; encodes as the value itself.
    public final class IndirectInput<Value: Encodable & Sendable & Hashable>: Encodable, Sendable, Hashable {
        public let value: Value

        public init(_ value: Value) {
            self.value = value
        }

        public func encode(to encoder: any Encoder) throws {
            try value.encode(to: encoder)
        }

        public static func == (left: IndirectInput, right: IndirectInput) -> Bool {
            left.value == right.value
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(value)
        }
    }
    """#)

    static let jsonValue = RuntimeFile(name: "JSONValue.swift", contents: #"""
    /// Any JSON value, for the `Any` scalar.
    public enum JSONValue: Sendable, Hashable, Codable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONValue])
        case object([String: JSONValue])

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([JSONValue].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: JSONValue].self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
        }
    }
    """#)
}
