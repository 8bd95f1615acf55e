import GatehouseGraphQL

/// Variables as one spelling per value, so equal variables make equal cache keys: object keys
/// sorted, numbers written one way (`1`, `1.0` and `1e0` are the same number), no whitespace.
enum CanonicalJSON {
    /// Integers up to 2^53 are exact as doubles and are written as integers.
    static let largestExactInteger = 9_007_199_254_740_992.0

    static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
                .enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.appendQuoted(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                append(member.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                append(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .number(let lexeme):
            out.append(contentsOf: number(lexeme).utf8)
        default:
            value.serialized(into: &out)
        }
    }

    /// One spelling per number: integral values within the exact range as integers, others as
    /// Swift's shortest round-tripping double. A lexeme a double cannot hold stays as written.
    static func number(_ lexeme: String) -> String {
        guard let double = Double(lexeme), double.isFinite else { return lexeme }
        if double == double.rounded(), abs(double) <= largestExactInteger {
            return String(Int64(double))
        }
        return "\(double)"
    }
}
