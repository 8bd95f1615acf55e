import GatehouseGraphQL

/// Variables as one spelling per value, so equal variables make equal cache keys: object keys
/// sorted, numbers written one way (`1`, `1.0` and `1e0` are the same number, and so are
/// `0.5` and `5e-1`), no whitespace.
enum CanonicalJSON {
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

    /// One spelling per number, exact at any size: the significant digits without leading or
    /// trailing zeros, then the power of ten they are scaled by (`5e-1`, `15e299`); a whole
    /// number of up to 21 digits is written out (`100`). Never through a double, which would
    /// make two 64-bit ids past 2^53 one key. A lexeme that is not a JSON number (the reader
    /// checked it) or whose exponent is out of all reason stays as written: its own key.
    static func number(_ lexeme: String) -> String {
        var text = lexeme
        return text.withUTF8 { bytes in exactDecimal(bytes) } ?? lexeme
    }

    private static func exactDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits: [UInt8] = []
        var exponent = 0
        var sawDigit = false
        var inFraction = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !inFraction else { return nil }
                inFraction = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                sawDigit = true
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
                if inFraction { exponent -= 1 }
            } else {
                break
            }
            index += 1
        }
        guard sawDigit else { return nil }
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            index += 1
            var sign = 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                if bytes[index] == UInt8(ascii: "-") { sign = -1 }
                index += 1
            }
            let start = index
            var written = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                written = written * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                guard written < 1_000_000_000 else { return nil }
                index += 1
            }
            guard index > start, index == bytes.count else { return nil }
            exponent += sign * written
        }
        // A fraction's leading zeros were skipped above but still moved the exponent.
        guard !digits.isEmpty else { return "0" }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        var out = negative ? "-" : ""
        out += String(decoding: digits, as: UTF8.self)
        if exponent >= 0 && digits.count + exponent <= 21 {
            out += String(repeating: "0", count: exponent)
        } else {
            out += "e\(exponent)"
        }
        return out
    }
}
