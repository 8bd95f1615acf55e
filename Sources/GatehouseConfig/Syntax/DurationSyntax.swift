/// Durations as the configuration writes them: `250ms`, `10s`, `1m30s`, `2h`, or `0`.
///
/// Components are whole numbers with a unit (`h`, `m`, `s`, `ms`), largest unit first, each unit
/// at most once. A bare number other than `0` is refused: `30` could mean seconds or
/// milliseconds, and a config that is misread that way fails silently.
public enum DurationSyntax {
    /// The longest accepted duration; anything larger is certainly a typo.
    public static let maximum: Duration = .seconds(366 * 24 * 3600)

    public static func parse(_ text: String) -> Result<Duration, ValueProblem> {
        if text == "0" { return .success(.zero) }
        let bytes = Array(text.utf8)
        if !bytes.isEmpty, bytes.allSatisfy(isDigit) {
            return .failure(ValueProblem("duration \"\(text)\" needs a unit, e.g. \(text)s or \(text)ms"))
        }
        guard let milliseconds = totalMilliseconds(bytes) else {
            return .failure(ValueProblem("invalid duration \"\(text)\"; write e.g. 250ms, 10s, 1m30s or 2h"))
        }
        let duration = Duration.milliseconds(milliseconds)
        guard duration <= maximum else {
            return .failure(ValueProblem("duration \"\(text)\" is longer than a year"))
        }
        return .success(duration)
    }

    // MARK: - Components

    /// Units from largest to smallest, with their length in milliseconds.
    private static let units: [(name: String, milliseconds: Int64)] = [
        ("h", 3_600_000), ("m", 60_000), ("s", 1_000), ("ms", 1),
    ]

    private static func totalMilliseconds(_ bytes: [UInt8]) -> Int64? {
        var index = 0
        var total: Int64 = 0
        var nextAllowedUnit = 0
        while index < bytes.count {
            let numberStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > numberStart, index - numberStart <= 12 else { return nil }
            let number = Int64(String(decoding: bytes[numberStart..<index], as: UTF8.self)) ?? 0
            let unitStart = index
            while index < bytes.count, !isDigit(bytes[index]) { index += 1 }
            let unitName = String(decoding: bytes[unitStart..<index], as: UTF8.self)
            guard let unitIndex = units.firstIndex(where: { $0.name == unitName }),
                  unitIndex >= nextAllowedUnit else { return nil }
            nextAllowedUnit = unitIndex + 1
            let (part, overflow) = number.multipliedReportingOverflow(by: units[unitIndex].milliseconds)
            guard !overflow else { return nil }
            let (sum, sumOverflow) = total.addingReportingOverflow(part)
            guard !sumOverflow else { return nil }
            total = sum
        }
        return bytes.isEmpty ? nil : total
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
