import GatehouseHTTP
import GatehouseIO

/// Which upstream responses become gateway envelopes. 401, 403 and 429 always do;
/// other error statuses do when their body is not JSON (an HTML error page must not reach an
/// app that expects GraphQL JSON). JSON error responses pass through unchanged.
enum UpstreamErrorMapping {
    static func error(for response: ResponseHead) -> GatewayError? {
        switch response.status {
        case 401:
            return GatewayError.upstreamAnswer(.unauthenticated, "The upstream refused the credentials.")
        case 403:
            return GatewayError.upstreamAnswer(.forbidden, "The upstream refused access.")
        case 429:
            return GatewayError.upstreamAnswer(.rateLimited(retryAfterSeconds: retryAfter(response)),
                                               "The upstream is rate limiting requests.")
        case 400...599 where !hasJSONBody(response):
            return GatewayError.upstreamAnswer(.upstreamError(upstreamStatus: response.status),
                                               "The upstream answered with an error.")
        default:
            return nil
        }
    }

    /// `Retry-After` as delta-seconds: given so, or an HTTP-date turned into the seconds from
    /// `now` (wall-clock seconds since the epoch; a date already past is 0). Anything else is
    /// treated as absent.
    static func retryAfter(_ response: ResponseHead, now: () -> Int = { Int(FileSystem.unixSeconds) }) -> Int? {
        guard let range = response.headerValue(named: HeaderNames.retryAfter), range.count > 0 else { return nil }
        let value = response.bytes[range]
        if let date = HTTPDate.secondsSinceEpoch(value) { return max(0, date - now()) }
        guard value.count <= 9 else { return nil }
        return DecimalDigits.value(of: value)
    }

    /// `application/json`, `application/graphql-response+json` or any `+json` type.
    static func hasJSONBody(_ response: ResponseHead) -> Bool {
        guard let range = response.contentType else { return false }
        var type = response.bytes[range].prefix { $0 != UInt8(ascii: ";") }
        while let last = type.last, last == 0x20 || last == 0x09 { type = type.dropLast() }
        let lower = type.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return lower == Array("application/json".utf8) || lower.suffix(5) == Array("+json".utf8)[...]
    }
}
