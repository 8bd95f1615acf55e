/// The response header fields that decide framing and reuse (RFC 9112 §6.3): Content-Length,
/// Transfer-Encoding and Connection; and where Content-Type is, which every response is asked
/// (streamed? JSON?), noted in the same pass. Framing an intermediary could read two ways is refused, as
/// README, "How a request is handled" asks (a 502 and a discarded connection).
struct ResponseFieldRules {
    struct Outcome {
        var framing: ResponseBodyFraming
        var keepAlive: Bool
        var connectionOptions: [Range<Int>]
    }

    struct Failure: Error {
        var reason: String
    }

    let version: HTTPVersion
    private var contentLength: Int?
    private var transferEncodingSeen = false
    private var connection = ConnectionOptions()
    /// The first Content-Type value.
    private(set) var contentType: Range<Int>?

    init(version: HTTPVersion) {
        self.version = version
    }

    // MARK: - Per field

    /// Checks one field; returns the reason the response is malformed, if it is.
    mutating func inspect(_ buffer: UnsafeRawBufferPointer, _ field: HeaderField) -> String? {
        let name = UnsafeRawBufferPointer(rebasing: buffer[field.name])
        switch name.count {
        case 10 where HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.connection):
            guard connection.add(buffer, field.value) else {
                return "The upstream Connection header must list tokens."
            }
        case 12 where contentType == nil && HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.contentType):
            contentType = field.value
        case 14 where HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.contentLength):
            guard let length = ContentLengthValue.parse(buffer, field.value) else {
                return "The upstream Content-Length header is invalid."
            }
            // Repeated fields with the same value are one length (RFC 9110 §8.6); differing ones
            // make the body boundary ambiguous.
            if let contentLength, contentLength != length {
                return "The upstream response has differing Content-Length headers."
            }
            contentLength = length
        case 17 where HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.transferEncoding):
            guard !transferEncodingSeen else {
                return "The upstream response has more than one Transfer-Encoding header."
            }
            transferEncodingSeen = true
            guard HeaderNames.asciiCaseInsensitiveEquals(UnsafeRawBufferPointer(rebasing: buffer[field.value]), "chunked") else {
                return "The upstream Transfer-Encoding must be exactly chunked."
            }
        default:
            break
        }
        return nil
    }

    // MARK: - After the last field

    /// Consuming: the rules are done with after it, and a borrowed copy cost a retain per head.
    consuming func finish(status: Int, requestMethod: HTTPMethod) -> Result<Outcome, Failure> {
        if transferEncodingSeen {
            guard contentLength == nil else {
                return .failure(Failure(reason: "The upstream response combines Content-Length and Transfer-Encoding."))
            }
            guard version == .http11 else {
                return .failure(Failure(reason: "The upstream HTTP/1.0 response uses Transfer-Encoding."))
            }
        }

        let framing: ResponseBodyFraming
        if requestMethod == .head || status < 200 || status == 204 || status == 304 {
            framing = .none
        } else if transferEncodingSeen {
            framing = .chunked
        } else if let contentLength {
            framing = .contentLength(contentLength)
        } else {
            framing = .closeDelimited
        }

        var keepAlive = version == .http11 ? !connection.close : connection.keepAlive && !connection.close
        if framing == .closeDelimited { keepAlive = false }
        return .success(Outcome(framing: framing, keepAlive: keepAlive, connectionOptions: connection.tokens))
    }
}
