/// Byte sizes as the configuration writes them: plain bytes (`65536`) or binary units
/// (`16KiB`, `10MiB`, `1GiB`). Decimal units (`KB`, `MB`, `k`) are refused rather than guessed,
/// since `10MB` means 10,000,000 to some readers and 10,485,760 to others.
public enum SizeSyntax {
    public static func parse(_ text: String) -> Result<Int, ValueProblem> {
        let bytes = Array(text.utf8)
        var digitsEnd = 0
        while digitsEnd < bytes.count, bytes[digitsEnd] >= 0x30, bytes[digitsEnd] <= 0x39 { digitsEnd += 1 }
        guard digitsEnd > 0, digitsEnd <= 18 else { return .failure(invalid(text)) }
        let number = Int(String(decoding: bytes[..<digitsEnd], as: UTF8.self)) ?? 0
        let unit = String(decoding: bytes[digitsEnd...], as: UTF8.self)
        let multiplier: Int
        switch unit {
        case "": multiplier = 1
        case "KiB": multiplier = 1 << 10
        case "MiB": multiplier = 1 << 20
        case "GiB": multiplier = 1 << 30
        case _ where lookalikeUnits.contains(unit.lowercased()):
            return .failure(ValueProblem("size \"\(text)\": use bytes or the binary units KiB, MiB, GiB (e.g. \(number)\(binaryHint(unit)))"))
        default:
            return .failure(invalid(text))
        }
        let (total, overflow) = number.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return .failure(invalid(text)) }
        return .success(total)
    }

    /// Units that look like sizes but are not the accepted spelling (`KB`, `mb`, `GIB`, …).
    private static let lookalikeUnits: Set<String> = ["k", "kb", "kib", "m", "mb", "mib", "g", "gb", "gib"]

    private static func invalid(_ text: String) -> ValueProblem {
        ValueProblem("invalid size \"\(text)\"; write bytes (e.g. 65536) or 16KiB, 10MiB, 1GiB")
    }

    private static func binaryHint(_ unit: String) -> String {
        switch unit.first {
        case "m", "M": "MiB"
        case "g", "G": "GiB"
        default: "KiB"
        }
    }
}
