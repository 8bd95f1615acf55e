/// Swift spellings of GraphQL names: keywords escaped with backticks, type names capitalized.
enum SwiftNames {
    /// Words that cannot be identifiers without backticks (The Swift Programming Language,
    /// Lexical Structure, Keywords and Punctuation), plus `Type` and `Protocol`, which read as
    /// metatypes after a dot.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol",
    ]

    /// Types the generated code names (Swift, Foundation and the runtime files): a schema type or
    /// a nested result type with one of these names would shadow them.
    static let reservedTypeNames: Set<String> = [
        "Any", "AnyObject", "Array", "Bool", "Character", "Codable", "Collection", "Comparable", "Equatable",
        "Sequence", "Substring", "UInt", "Int32", "Float", "Data", "Date", "Decodable", "Decoder", "Dictionary",
        "Double", "Encodable", "Encoder", "Error", "Hashable", "Identifiable", "Int", "Int64",
        "Never", "Optional", "Protocol", "Result", "Self", "Sendable", "Set", "String", "Type", "URL",
        "URLRequest", "URLResponse", "URLSession", "UUID", "Void", "CodingKeys", "Variables",
        "Connector", "FetchPolicy", "GatehouseClient", "GatehouseError", "GatewayDoor", "JSONValue",
        "JSONCoding", "ISO8601Text", "NoVariables", "QueryParameters", "QueryParameterValue", "TokenProvider",
        "CallByName", "GraphQLResponse", "ErrorEnvelope", "IndirectInput", "Foundation", "FoundationNetworking",
    ]

    /// An identifier, escaped when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `director` -> `Director`, `__typename` -> `Typename`, `_` -> `Value`.
    static func typeName(_ name: String) -> String {
        let trimmed = name.drop { $0 == "_" }
        guard let first = trimmed.first else { return "Value" }
        return first.uppercased() + trimmed.dropFirst()
    }

    /// `ListMovies` -> `listMovies`.
    static func memberName(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }

    /// A Swift string literal.
    static func literal(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    /// `candidate`, or `candidate` + `suffix` (+ a number) when that is taken.
    static func unique(_ candidate: String, suffix: String, taken: Set<String>) -> String {
        if !taken.contains(candidate) { return candidate }
        if !taken.contains(candidate + suffix) { return candidate + suffix }
        var number = 2
        while taken.contains("\(candidate)\(suffix)\(number)") { number += 1 }
        return "\(candidate)\(suffix)\(number)"
    }
}
