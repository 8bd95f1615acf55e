import Foundation

/// What the demo backend needs from a GraphQL document: the operation type and the first
/// root field with its arguments. A scanner, not a parser: the backend is a fixture that answers
/// one root field per request, and the gateway in front is where documents are validated.
struct DemoGraphQLSelection {
    /// `query`, `mutation` or `subscription`.
    var operationType = "query"
    var fieldName: String
    /// The alias when the field has one, else the field name.
    var responseKey: String
    /// Argument values with `$variables` resolved; nil when the field has no argument list.
    var arguments: [String: Any]?
}

struct DemoGraphQLScanError: Error {
    var message: String
    /// `GRAPHQL_PARSE_FAILED` for syntax errors, `GRAPHQL_VALIDATION_FAILED` for a missing operation.
    var code = "GRAPHQL_PARSE_FAILED"
}

struct DemoGraphQLScanner {
    private let bytes: [UInt8]
    private let variables: [String: Any]
    private var index = 0

    // MARK: - Entry point

    /// The first root field of the operation named `operationName` in `document`, or of its first
    /// operation when no name is given.
    static func firstSelection(in document: String, operationName: String? = nil,
                               variables: [String: Any]) throws(DemoGraphQLScanError) -> DemoGraphQLSelection {
        var scanner = DemoGraphQLScanner(bytes: Array(document.utf8), variables: variables)
        return try scanner.scanOperation(named: operationName)
    }

    private init(bytes: [UInt8], variables: [String: Any]) {
        self.bytes = bytes
        self.variables = variables
    }

    private mutating func scanOperation(named operationName: String?) throws(DemoGraphQLScanError)
        -> DemoGraphQLSelection {
        var operationType = "query"
        while true {
            skipIgnored()
            guard let byte = peek() else {
                let what = operationName.map { "Unknown operation named \"\($0)\"." } ?? "Document has no operation."
                throw DemoGraphQLScanError(message: what, code: "GRAPHQL_VALIDATION_FAILED")
            }
            if byte == UInt8(ascii: "{") { break }
            let keyword = try readName()
            if keyword == "fragment" {
                try skipDefinition()
                continue
            }
            guard ["query", "mutation", "subscription"].contains(keyword) else {
                throw DemoGraphQLScanError(message: "Syntax Error: Unexpected Name \"\(keyword)\".")
            }
            skipIgnored()
            let name = peek().map { Self.isNameByte($0, first: true) } == true ? try readName() : nil
            if let operationName, name != operationName {
                try skipDefinition()
                continue
            }
            operationType = keyword
            try skipToSelectionSet()
            break
        }
        index += 1  // the selection set's `{`
        skipIgnored()
        var fieldName = try readName()
        let responseKey = fieldName
        skipIgnored()
        if peek() == UInt8(ascii: ":") {
            index += 1
            skipIgnored()
            fieldName = try readName()
            skipIgnored()
        }
        var arguments: [String: Any]?
        if peek() == UInt8(ascii: "(") {
            index += 1
            arguments = try readArguments()
        }
        return DemoGraphQLSelection(operationType: operationType, fieldName: fieldName,
                                    responseKey: responseKey, arguments: arguments)
    }

    // MARK: - Skipping

    /// Skips white space, commas and comments.
    private mutating func skipIgnored() {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                 UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "#"):
                while let next = peek(), next != UInt8(ascii: "\n"), next != UInt8(ascii: "\r") { index += 1 }
            default:
                return
            }
        }
    }

    /// Moves to the `{` that opens the operation's selection set, past its name, variable
    /// definitions (whose default values may hold `{`) and directives.
    private mutating func skipToSelectionSet() throws(DemoGraphQLScanError) {
        var parenthesisDepth = 0
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                _ = try readString()
                continue
            case UInt8(ascii: "("):
                parenthesisDepth += 1
            case UInt8(ascii: ")"):
                parenthesisDepth -= 1
            case UInt8(ascii: "{") where parenthesisDepth == 0:
                return
            case UInt8(ascii: "#"):
                skipIgnored()
                continue
            default:
                break
            }
            index += 1
        }
        throw DemoGraphQLScanError(message: "Syntax Error: Expected \"{\", found <EOF>.")
    }

    /// Skips the rest of a definition (a fragment, or an operation not asked for) up to its closing `}`.
    private mutating func skipDefinition() throws(DemoGraphQLScanError) {
        try skipToSelectionSet()
        var depth = 0
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                _ = try readString()
                continue
            case UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    index += 1
                    return
                }
            default:
                break
            }
            index += 1
        }
        throw DemoGraphQLScanError(message: "Syntax Error: Expected \"}\", found <EOF>.")
    }

    // MARK: - Tokens

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            true
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            !first
        default:
            false
        }
    }

    private mutating func readName() throws(DemoGraphQLScanError) -> String {
        let start = index
        while let byte = peek(), Self.isNameByte(byte, first: index == start) { index += 1 }
        guard index > start else {
            let found = peek().map { "\"\(Character(Unicode.Scalar($0)))\"" } ?? "<EOF>"
            throw DemoGraphQLScanError(message: "Syntax Error: Expected Name, found \(found).")
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    // MARK: - Values

    /// `name: value` pairs up to the closing `)`.
    private mutating func readArguments() throws(DemoGraphQLScanError) -> [String: Any] {
        var arguments: [String: Any] = [:]
        while true {
            skipIgnored()
            if peek() == UInt8(ascii: ")") {
                index += 1
                return arguments
            }
            let name = try readName()
            skipIgnored()
            guard peek() == UInt8(ascii: ":") else {
                throw DemoGraphQLScanError(message: "Syntax Error: Expected \":\" after argument \"\(name)\".")
            }
            index += 1
            if let value = try readValue() { arguments[name] = value }
        }
    }

    /// A value; nil for a `$variable` the request did not provide (the argument is then absent).
    private mutating func readValue() throws(DemoGraphQLScanError) -> Any? {
        skipIgnored()
        guard let byte = peek() else { throw DemoGraphQLScanError(message: "Syntax Error: Unexpected <EOF>.") }
        switch byte {
        case UInt8(ascii: "$"):
            index += 1
            return variables[try readName()]
        case UInt8(ascii: "\""):
            return try readString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try readNumber()
        case UInt8(ascii: "["):
            index += 1
            var list: [Any] = []
            while true {
                skipIgnored()
                if peek() == UInt8(ascii: "]") {
                    index += 1
                    return list
                }
                list.append(try readValue() ?? NSNull())
            }
        case UInt8(ascii: "{"):
            index += 1
            var object: [String: Any] = [:]
            while true {
                skipIgnored()
                if peek() == UInt8(ascii: "}") {
                    index += 1
                    return object
                }
                let key = try readName()
                skipIgnored()
                guard peek() == UInt8(ascii: ":") else {
                    throw DemoGraphQLScanError(message: "Syntax Error: Expected \":\" after field \"\(key)\".")
                }
                index += 1
                object[key] = try readValue() ?? NSNull()
            }
        default:
            let name = try readName()
            switch name {
            case "true": return true
            case "false": return false
            case "null": return NSNull()
            default: return name  // an enum value
            }
        }
    }

    private mutating func readNumber() throws(DemoGraphQLScanError) -> Any {
        let start = index
        while let byte = peek(), byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if let integer = Int(text) { return integer }
        if let float = Double(text) { return float }
        throw DemoGraphQLScanError(message: "Syntax Error: Invalid number \"\(text)\".")
    }

    /// A `"…"` string with escapes, or a `"""…"""` block string (taken as written).
    private mutating func readString() throws(DemoGraphQLScanError) -> String {
        if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") {
            index += 3
            let start = index
            while index + 2 < bytes.count {
                if bytes[index] == UInt8(ascii: "\""), bytes[index + 1] == UInt8(ascii: "\""),
                   bytes[index + 2] == UInt8(ascii: "\"") {
                    defer { index += 3 }
                    return String(decoding: bytes[start..<index], as: UTF8.self)
                }
                index += 1
            }
            throw DemoGraphQLScanError(message: "Syntax Error: Unterminated string.")
        }
        index += 1
        var text: [UInt8] = []
        while let byte = peek() {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try appendEscape(to: &text)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw DemoGraphQLScanError(message: "Syntax Error: Unterminated string.")
            default:
                text.append(byte)
            }
        }
        throw DemoGraphQLScanError(message: "Syntax Error: Unterminated string.")
    }

    private mutating func appendEscape(to text: inout [UInt8]) throws(DemoGraphQLScanError) {
        guard let escaped = peek() else { throw DemoGraphQLScanError(message: "Syntax Error: Unterminated string.") }
        index += 1
        switch escaped {
        case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
        case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
        case UInt8(ascii: "r"): text.append(UInt8(ascii: "\r"))
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
        case UInt8(ascii: "u"):
            guard index + 4 <= bytes.count,
                  let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16),
                  let scalar = Unicode.Scalar(code) else {
                throw DemoGraphQLScanError(message: "Syntax Error: Invalid Unicode escape sequence.")
            }
            index += 4
            text.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw DemoGraphQLScanError(message: "Syntax Error: Invalid character escape sequence.")
        }
    }
}
