import GatehouseGraphQL
import GatehouseHTTP
import GatehouseIO

/// The one place that maps a `GatewayError` to a status, headers and the JSON error envelope
/// (README, "Errors"). `Worker.record(_:)` is the one place that counts and logs the result.
public enum ErrorEnvelope {
    public struct Mapping: Equatable {
        public var status: Int
        public var code: StaticString
        public var retryable: Bool

        public static func == (a: Mapping, b: Mapping) -> Bool {
            a.status == b.status && a.code.description == b.code.description && a.retryable == b.retryable
        }
    }

    public static func mapping(for kind: GatewayError.Kind) -> Mapping {
        switch kind {
        case .badRequest: return Mapping(status: 400, code: "BAD_REQUEST", retryable: false)
        case .unauthenticated: return Mapping(status: 401, code: "UNAUTHENTICATED", retryable: false)
        case .forbidden: return Mapping(status: 403, code: "FORBIDDEN", retryable: false)
        case .operationNotAllowed: return Mapping(status: 403, code: "OPERATION_NOT_ALLOWED", retryable: false)
        case .notFound: return Mapping(status: 404, code: "NOT_FOUND", retryable: false)
        case .methodNotAllowed: return Mapping(status: 405, code: "METHOD_NOT_ALLOWED", retryable: false)
        case .requestTimeout: return Mapping(status: 408, code: "REQUEST_TIMEOUT", retryable: false)
        case .payloadTooLarge: return Mapping(status: 413, code: "PAYLOAD_TOO_LARGE", retryable: false)
        case .uriTooLong: return Mapping(status: 414, code: "URI_TOO_LONG", retryable: false)
        case .rateLimited: return Mapping(status: 429, code: "RATE_LIMITED", retryable: true)
        case .headersTooLarge: return Mapping(status: 431, code: "HEADERS_TOO_LARGE", retryable: false)
        case .upstreamError: return Mapping(status: 502, code: "UPSTREAM_ERROR", retryable: true)
        case .unavailable: return Mapping(status: 503, code: "UNAVAILABLE", retryable: true)
        case .upstreamTimeout: return Mapping(status: 504, code: "UPSTREAM_TIMEOUT", retryable: true)
        case .cacheMiss: return Mapping(status: 504, code: "CACHE_MISS", retryable: false)
        case .internalError: return Mapping(status: 500, code: "INTERNAL", retryable: false)
        // Apollo clients expect an APQ miss as HTTP 200 with this exact message and code.
        case .persistedQueryNotFound: return Mapping(status: 200, code: "PERSISTED_QUERY_NOT_FOUND", retryable: false)
        case .clientClosed: return Mapping(status: clientClosedStatus, code: "CLIENT_CLOSED", retryable: false)
        }
    }

    /// nginx's non-standard "client closed request": what the log and metrics say of a request
    /// whose client went away before the answer.
    public static let clientClosedStatus = 499
    public static var clientClosedCode: String { mapping(for: .clientClosed).code.description }

    /// The JSON body for `error`.
    public static func body(for error: GatewayError, requestID: RequestID) -> [UInt8] {
        let mapping = mapping(for: error.kind)
        var out: [UInt8] = []
        out.reserveCapacity(256)
        out.append(contentsOf: #"{"errors":[{"message":"#.utf8)
        JSONValue.appendQuoted(error.message, to: &out)
        out.append(contentsOf: #","extensions":{"code":""#.utf8)
        out.append(contentsOf: mapping.code.description.utf8)
        out.append(contentsOf: #"","status":"#.utf8)
        out.append(contentsOf: String(mapping.status).utf8)
        out.append(contentsOf: #","source":""#.utf8)
        out.append(contentsOf: (error.mapsUpstreamAnswer ? "upstream" : "gateway").utf8)
        out.append(contentsOf: #"","retryable":"#.utf8)
        out.append(contentsOf: (mapping.retryable ? "true" : "false").utf8)
        out.append(contentsOf: #","requestId":""#.utf8)
        requestID.withBytes { out.append(contentsOf: $0) }
        out.append(UInt8(ascii: "\""))
        switch error.kind {
        case .upstreamError(let upstreamStatus?):
            out.append(contentsOf: #","upstreamStatus":"#.utf8)
            out.append(contentsOf: String(upstreamStatus).utf8)
        case .rateLimited(let retryAfter?):
            out.append(contentsOf: #","retryAfter":"#.utf8)
            out.append(contentsOf: String(retryAfter).utf8)
        default:
            break
        }
        out.append(contentsOf: "}}]}".utf8)
        return out
    }

    /// Appends the whole response (head and, unless `headRequest`, body) to `out`.
    /// `extraFields` appends complete "Name: value\r\n" lines to the head. A kept connection is
    /// said so when `announceKeepAlive` (an HTTP/1.0 client assumes it closes otherwise).
    public static func render(_ error: GatewayError, requestID: RequestID, keepAlive: Bool, announceKeepAlive: Bool = false,
                              headRequest: Bool, extraFields: (inout ByteBuffer) -> Void = { _ in },
                              into out: inout ByteBuffer) {
        let mapping = mapping(for: error.kind)
        let body = body(for: error, requestID: requestID)
        out.append("HTTP/1.1 ")
        out.append(decimal: mapping.status)
        out.append(byte: 0x20)
        out.append(string: HTTPStatus.reasonPhrase(mapping.status))
        out.append("\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nX-Request-Id: ")
        out.append(requestID)
        out.append("\r\nContent-Length: ")
        out.append(decimal: body.count)
        switch error.kind {
        case .unauthenticated:
            if let description = error.invalidTokenDescription {
                out.append("\r\nWWW-Authenticate: Bearer realm=\"gatehouse\", error=\"invalid_token\", error_description=\"")
                out.append(string: description)
                out.append("\"")
            } else if !error.mapsUpstreamAnswer {
                out.append("\r\nWWW-Authenticate: Bearer realm=\"gatehouse\"")
            }
        case .methodNotAllowed(let allow):
            out.append("\r\nAllow: ")
            out.append(string: allow.joined(separator: ", "))
        case .rateLimited(let retryAfter?):
            out.append("\r\nRetry-After: ")
            out.append(decimal: retryAfter)
        default:
            break
        }
        out.append("\r\n")
        extraFields(&out)
        if !keepAlive {
            out.append("Connection: close\r\n\r\n")
        } else if announceKeepAlive {
            out.append("Connection: keep-alive\r\n\r\n")
        } else {
            out.append("\r\n")
        }
        if !headRequest { out.append(body) }
    }
}
