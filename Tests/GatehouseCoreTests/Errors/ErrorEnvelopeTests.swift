import Foundation
import GatehouseIO
import Testing
@testable import GatehouseCore

/// README, "The error envelope": one envelope shape, one status per kind, retryable for 429/502/503/504.
struct ErrorEnvelopeTests {
    static let table: [(GatewayError.Kind, Int, String, Bool)] = [
        (.badRequest, 400, "BAD_REQUEST", false),
        (.unauthenticated, 401, "UNAUTHENTICATED", false),
        (.forbidden, 403, "FORBIDDEN", false),
        (.operationNotAllowed, 403, "OPERATION_NOT_ALLOWED", false),
        (.notFound, 404, "NOT_FOUND", false),
        (.methodNotAllowed(allow: ["GET", "POST"]), 405, "METHOD_NOT_ALLOWED", false),
        (.requestTimeout, 408, "REQUEST_TIMEOUT", false),
        (.payloadTooLarge, 413, "PAYLOAD_TOO_LARGE", false),
        (.uriTooLong, 414, "URI_TOO_LONG", false),
        (.rateLimited(retryAfterSeconds: 7), 429, "RATE_LIMITED", true),
        (.headersTooLarge, 431, "HEADERS_TOO_LARGE", false),
        (.upstreamError(upstreamStatus: 503), 502, "UPSTREAM_ERROR", true),
        (.unavailable, 503, "UNAVAILABLE", true),
        (.upstreamTimeout, 504, "UPSTREAM_TIMEOUT", true),
        (.internalError, 500, "INTERNAL", false),
        (.persistedQueryNotFound, 200, "PERSISTED_QUERY_NOT_FOUND", false),
    ]

    @Test(arguments: table)
    func mapsKindToStatusAndBody(_ row: (GatewayError.Kind, Int, String, Bool)) throws {
        let error = GatewayError(row.0, "Something \"quoted\" happened.")
        let body = ErrorEnvelope.body(for: error, requestID: RequestID(client: "req-1"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let first = try #require((json["errors"] as? [[String: Any]])?.first)
        #expect(first["message"] as? String == "Something \"quoted\" happened.")
        let extensions = try #require(first["extensions"] as? [String: Any])
        #expect(extensions["code"] as? String == row.2)
        #expect(extensions["status"] as? Int == row.1)
        #expect(extensions["source"] as? String == "gateway")
        #expect(extensions["retryable"] as? Bool == row.3)
        #expect(extensions["requestId"] as? String == "req-1")
    }

    @Test func rendersHeadersForEachKind() {
        var out = ByteBuffer(capacity: 512)
        ErrorEnvelope.render(GatewayError(.rateLimited(retryAfterSeconds: 7), "Slow down."), requestID: RequestID(client: "r"),
                             keepAlive: false, headRequest: false, into: &out)
        let text = String(decoding: Array(out.readable), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 429 Too Many Requests\r\n"))
        #expect(text.contains("\r\nRetry-After: 7\r\n"))
        #expect(text.contains("\r\nCache-Control: no-store\r\n"))
        #expect(text.contains("\r\nContent-Type: application/json\r\n"))
        #expect(text.contains("\r\nConnection: close\r\n\r\n{"))
        #expect(text.contains(#""retryAfter":7"#))

        var challenge = ByteBuffer(capacity: 512)
        ErrorEnvelope.render(GatewayError(.unauthenticated, "Authentication required"), requestID: RequestID(client: "r"),
                             keepAlive: true, headRequest: true, into: &challenge)
        let head = String(decoding: Array(challenge.readable), as: UTF8.self)
        #expect(head.contains("\r\nWWW-Authenticate: Bearer realm=\"gatehouse\"\r\n"))
        #expect(head.hasSuffix("\r\n\r\n"))  // HEAD: no body
    }

    @Test func upstreamStatusIsReported() throws {
        let body = ErrorEnvelope.body(for: GatewayError.upstreamAnswer(.upstreamError(upstreamStatus: 503), "x"), requestID: RequestID(client: "r"))
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains(#""upstreamStatus":503"#))
        #expect(text.contains(#""source":"upstream""#))
    }
}
