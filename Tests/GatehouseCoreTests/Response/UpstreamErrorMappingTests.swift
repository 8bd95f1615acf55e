import GatehouseHTTP
import Testing
@testable import GatehouseCore

/// An upstream 429's `Retry-After`, as the envelope passes it on: delta-seconds as given, an
/// HTTP-date as the seconds until it (on a manual clock), anything else absent.
private func upstream429(retryAfter: String) -> ResponseHead? {
    let bytes = Array("HTTP/1.1 429 Too Many Requests\r\nRetry-After: \(retryAfter)\r\nContent-Length: 0\r\n\r\n".utf8)
    var scanned = 0
    let result = bytes.withUnsafeBytes { ResponseHeadParser().parse($0, requestMethod: .post, scanned: &scanned) }
    guard case .complete(let head, _) = result else { return nil }
    return head
}

/// Wed, 21 Oct 2099 07:28:00 GMT
private let dateSeconds = 4_096_250_880

@Test(arguments: [
    ("7", 7 as Int?),
    ("0", 0),
    ("Wed, 21 Oct 2099 07:28:00 GMT", 90),
    ("Wed, 21 Oct 2099 07:26:00 GMT", 0),  // already past
    ("-5", nil),
    ("soon", nil),
    ("1234567890", nil),  // more digits than a delay can sensibly have
    ("Wednesday, 21-Oct-99 07:28:00 GMT", nil),
])
func passesOnRetryAfter(_ value: String, _ expected: Int?) throws {
    let head = try #require(upstream429(retryAfter: value))
    #expect(UpstreamErrorMapping.retryAfter(head, now: { dateSeconds - 90 }) == expected)
}
