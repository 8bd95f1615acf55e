/// Tag resolution of the YAML 1.2 core schema for plain scalars. YAML 1.1's `yes`/`no`/`on`/`off`
/// booleans are deliberately strings here, so `access_log: off` and `persisted: off` mean what
/// they say.
enum YAMLCoreSchema {
    static let nullTag = "tag:yaml.org,2002:null"
    static let boolTag = "tag:yaml.org,2002:bool"
    static let intTag = "tag:yaml.org,2002:int"
    static let floatTag = "tag:yaml.org,2002:float"
    static let stringTag = "tag:yaml.org,2002:str"

    /// The kind an explicit tag asks for; nil for tags this reader does not support.
    static func kind(ofTag tag: String) -> YAMLScalarKind? {
        switch tag {
        case "!", stringTag: .string
        case nullTag: .null
        case boolTag: .bool
        case intTag: .int
        case floatTag: .float
        default: nil
        }
    }

    static func kind(ofPlain text: String) -> YAMLScalarKind {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE", "false", "False", "FALSE": return .bool
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
             ".nan", ".NaN", ".NAN": return .float
        default: break
        }
        let bytes = Array(text.utf8)
        if isInteger(bytes) { return .int }
        if isFloat(bytes) { return .float }
        return .string
    }

    static func boolValue(of text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    // MARK: - Number shapes

    /// `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`.
    private static func isInteger(_ bytes: [UInt8]) -> Bool {
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
            let rest = bytes.dropFirst(2)
            if bytes[1] == UInt8(ascii: "o") { return rest.allSatisfy { $0 >= 0x30 && $0 <= 0x37 } }
            if bytes[1] == UInt8(ascii: "x") { return rest.allSatisfy(isHexDigit) }
        }
        let digits = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+")
            ? bytes.dropFirst() : bytes[...]
        return !digits.isEmpty && digits.allSatisfy(isDigit)
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    private static func isFloat(_ bytes: [UInt8]) -> Bool {
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            index += 1
        }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        var mantissaDigits = index - integerStart
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            mantissaDigits += index - fractionStart
        }
        guard mantissaDigits > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            let exponentStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > exponentStart else { return false }
        }
        return index == bytes.count
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }
}
