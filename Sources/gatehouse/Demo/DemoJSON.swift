import Foundation

/// JSON in and out for the demo backend through Foundation; the backend is a fixture, so
/// convenience wins over speed here.
enum DemoJSON {
    /// Compact JSON with sorted keys, so the same answer is always the same bytes.
    static func bytes(_ object: Any) -> [UInt8] {
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object,
                                                     options: [.sortedKeys, .withoutEscapingSlashes])
        else { return Array(#"{"errors":[{"message":"Internal error"}]}"#.utf8) }
        return [UInt8](data)
    }

    /// The body as a JSON object, or nil when it is not one.
    static func object(from bytes: [UInt8]) -> [String: Any]? {
        guard !bytes.isEmpty else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(bytes), options: [])) as? [String: Any]
    }

    // MARK: - Reading values loosely typed by JSONSerialization

    static func string(_ value: Any?) -> String? {
        value as? String
    }

    /// An integer from a JSON number (or a numeric string, as GET callers send them).
    static func int(_ value: Any?) -> Int? {
        switch value {
        case let number as Int: number
        case let number as Double where number.rounded() == number: Int(exactly: number)
        case let number as NSNumber: number.intValue
        case let text as String: Int(text)
        default: nil
        }
    }

    static func double(_ value: Any?) -> Double? {
        switch value {
        case let number as Double: number
        case let number as Int: Double(number)
        case let number as NSNumber: number.doubleValue
        case let text as String: Double(text)
        default: nil
        }
    }
}
