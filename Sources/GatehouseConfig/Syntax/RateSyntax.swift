/// Rates as the configuration writes them: `10/s`, `100/m`, `5000/h` — a whole count of
/// requests per second, minute or hour.
public enum RateSyntax {
    /// The largest count accepted: far beyond what one gateway serves in any window, and small
    /// enough that the limiter's nanosecond arithmetic (an hour times the largest burst) never
    /// comes near overflowing.
    public static let maximumCount = 1_000_000

    public static func parse(_ text: String) -> Result<RateLimitRate, ValueProblem> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let window = RateLimitRate.Window(rawValue: String(parts[1])),
              !parts[0].isEmpty, parts[0].utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .failure(ValueProblem("invalid rate \"\(text)\"; write e.g. 10/s, 100/m or 5000/h"))
        }
        guard let count = Int(parts[0]), count <= maximumCount else {
            return .failure(ValueProblem("rate \"\(text)\" allows more than \(maximumCount) requests per window"))
        }
        guard count > 0 else {
            return .failure(ValueProblem("rate \"\(text)\" allows no request; remove the limit or raise it"))
        }
        return .success(RateLimitRate(count: count, per: window))
    }
}
