/// The request header fields that decide framing and connection handling, checked as each field
/// arrives: Content-Length, Transfer-Encoding, Host, Connection and Expect (RFC 9112 §6–9,
/// README, "How a request is handled"), and Content-Type, which decides how the body is read (a
/// repeated one could be read as JSON here and as multipart upstream). Anything ambiguous is
/// refused; nothing is guessed. Authorization is only noted (where its first value lies, and
/// whether there are more): authentication reads it on every authenticated request, and the
/// head is walked here anyway.
struct RequestFieldRules {
    struct Outcome {
        var framing: RequestBodyFraming
        var host: Range<Int>?
        var keepAlive: Bool
        var expectContinue: Bool
        var unsupportedExpectation: Bool
        var connectionOptions: [Range<Int>]
        var authorization: AuthorizationField
    }

    let version: HTTPVersion
    private var contentLength: Int?
    private var transferEncodingSeen = false
    private var contentTypeSeen = false
    private var host: Range<Int>?
    private var connection = ConnectionOptions()
    private var expectContinue = false
    private var unsupportedExpectation = false
    private var authorization = AuthorizationField()

    init(version: HTTPVersion) {
        self.version = version
    }

    // MARK: - Per field

    /// Checks one field; returns the error that refuses the request, if any.
    mutating func inspect(_ buffer: UnsafeRawBufferPointer, _ field: HeaderField) -> HTTPRequestError? {
        let name = UnsafeRawBufferPointer(rebasing: buffer[field.name])
        switch name.count {
        case 4 where HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.host):
            guard host == nil else { return .badRequest("The request has more than one Host header.") }
            guard HostValue.isValid(buffer, field.value) else { return .badRequest("The Host header is invalid.") }
            host = field.value
        case 6 where HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.expect):
            inspectExpect(buffer, field.value)
        case 10 where HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.connection):
            guard connection.add(buffer, field.value) else {
                return .badRequest("The Connection header must list tokens.")
            }
        case 13 where HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.authorization):
            authorization.note(field.value)
        case 12 where HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.contentType):
            guard !contentTypeSeen else { return .badRequest("The request has more than one Content-Type header.") }
            contentTypeSeen = true
        case 14 where HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.contentLength):
            guard contentLength == nil else {
                return .badRequest("The request has more than one Content-Length header.")
            }
            guard let length = ContentLengthValue.parse(buffer, field.value) else {
                return .badRequest("The Content-Length header is invalid.")
            }
            contentLength = length
        case 17 where HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.transferEncoding):
            guard !transferEncodingSeen else {
                return .badRequest("The request has more than one Transfer-Encoding header.")
            }
            transferEncodingSeen = true
            let value = UnsafeRawBufferPointer(rebasing: buffer[field.value])
            guard HeaderNames.asciiCaseInsensitiveEquals(value, "chunked") else {
                return .badRequest("Transfer-Encoding must be exactly chunked.")
            }
        default:
            break
        }
        return nil
    }

    /// HTTP/1.0 requests ignore Expect (RFC 9110 §10.1.1).
    private mutating func inspectExpect(_ buffer: UnsafeRawBufferPointer, _ value: Range<Int>) {
        guard version == .http11 else { return }
        if HeaderNames.asciiCaseInsensitiveEquals(UnsafeRawBufferPointer(rebasing: buffer[value]), "100-continue") {
            expectContinue = true
        } else {
            unsupportedExpectation = true
        }
    }

    // MARK: - After the last field

    /// Consuming: the rules are done with after it, and a borrowed copy cost a retain per head.
    consuming func finish(_ buffer: UnsafeRawBufferPointer, methodKind: HTTPMethod) -> Result<Outcome, HTTPRequestError> {
        let framing: RequestBodyFraming
        if transferEncodingSeen {
            guard contentLength == nil else {
                return .failure(.badRequest("Content-Length and Transfer-Encoding must not be combined."))
            }
            guard version == .http11 else {
                return .failure(.badRequest("Transfer-Encoding is not allowed in an HTTP/1.0 request."))
            }
            framing = .chunked
        } else if let contentLength {
            framing = .contentLength(contentLength)
        } else {
            framing = .none
        }

        if version == .http11, host == nil {
            return .failure(.badRequest("An HTTP/1.1 request must have a Host header."))
        }
        if methodKind == .get || methodKind == .head {
            switch framing {
            case .chunked, .contentLength(1...):
                return .failure(.badRequest("GET and HEAD requests must not have a body."))
            default:
                break
            }
        }

        let keepAlive = version == .http11 ? !connection.close : connection.keepAlive && !connection.close
        return .success(Outcome(framing: framing, host: host, keepAlive: keepAlive, expectContinue: expectContinue,
                                unsupportedExpectation: unsupportedExpectation,
                                connectionOptions: connection.tokens, authorization: authorization))
    }
}
