/// The `max-age` of a `Cache-Control` response header (RFC 9111 §5.2.2.1), for how long a fetched
/// key set may be used. `no-cache` and `no-store` count as 0 (the schedule then clamps to
/// `refresh.min`).
enum CacheControlMaxAge {
    static func parse(_ value: String) -> Int64? {
        var result: Int64? = nil
        for part in value.split(separator: ",") {
            let directive = part.trimmingCharactersInSpaces()
            let lower = directive.lowercased()
            if lower == "no-cache" || lower == "no-store" { return 0 }
            guard lower.hasPrefix("max-age=") else { continue }
            var digits = lower.dropFirst("max-age=".count)
            if digits.hasPrefix("\""), digits.hasSuffix("\""), digits.count >= 2 { digits = digits.dropFirst().dropLast() }
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigitCharacter) else { return nil }
            // RFC 9111 §1.2.2: a delta-seconds too large to hold means "a very long time".
            result = Int64(digits) ?? Int64(Int32.max)
        }
        return result
    }
}

private extension Character {
    var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}

private extension Substring {
    func trimmingCharactersInSpaces() -> String {
        var text = self[...]
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
