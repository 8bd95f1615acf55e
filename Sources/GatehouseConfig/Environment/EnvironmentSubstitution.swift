/// `${VAR}` and `${VAR:-default}` in configuration values.
///
/// Rules (shell-like, and what must hold):
/// - `${VAR}`: the variable's value; an unset variable is an error (a set but empty one is "").
/// - `${VAR:-default}`: the value, or `default` when VAR is unset or empty. The default is taken
///   literally up to the first `}`; it is not substituted again.
/// - `$${` is a literal `${`; any other `$` is literal.
/// - Names are `[A-Za-z_][A-Za-z0-9_]*`. A `${` without its `}` is an error.
/// Error messages name the variable, never a value.
enum EnvironmentSubstitution {
    struct Problem: Error, Sendable, Equatable {
        var message: String
    }

    /// True when `text` holds something substitution would change (a `$` followed by `{` or `$`).
    static func mayChange(_ text: String) -> Bool {
        var previousWasDollar = false
        for byte in text.utf8 {
            if previousWasDollar, byte == UInt8(ascii: "{") { return true }
            previousWasDollar = byte == UInt8(ascii: "$")
        }
        return false
    }

    static func substitute(_ text: String, environment: [String: String]) -> Result<String, Problem> {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "$"), index + 1 < bytes.count else {
                output.append(byte)
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "$"), index + 2 < bytes.count, bytes[index + 2] == UInt8(ascii: "{") {
                output.append(contentsOf: "${".utf8)
                index += 3
                continue
            }
            guard next == UInt8(ascii: "{") else {
                output.append(byte)
                index += 1
                continue
            }
            guard let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
                return .failure(Problem(message: "unterminated ${ (write $${ for a literal ${)"))
            }
            let expression = String(decoding: bytes[(index + 2)..<close], as: UTF8.self)
            switch resolve(expression, environment: environment) {
            case .success(let value): output.append(contentsOf: value.utf8)
            case .failure(let problem): return .failure(problem)
            }
            index = close + 1
        }
        return .success(String(decoding: output, as: UTF8.self))
    }

    // MARK: - One expression

    /// `VAR` or `VAR:-default`, the text between `${` and `}`.
    private static func resolve(_ expression: String, environment: [String: String]) -> Result<String, Problem> {
        let name: Substring
        let fallback: Substring?
        if let separator = expression.range(ofText: ":-") {
            name = expression[..<separator.lowerBound]
            fallback = expression[separator.upperBound...]
        } else {
            name = expression[...]
            fallback = nil
        }
        guard isValidName(name) else {
            if name.isEmpty { return .failure(Problem(message: "empty variable name in ${}")) }
            return .failure(Problem(message: "invalid environment variable name \"\(name)\""))
        }
        let value = environment[String(name)]
        if let fallback {
            if let value, !value.isEmpty { return .success(value) }
            return .success(String(fallback))
        }
        guard let value else {
            return .failure(Problem(message: "environment variable \(name) is not set"))
        }
        return .success(value)
    }

    private static func isValidName(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}
