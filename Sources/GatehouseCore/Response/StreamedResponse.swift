import GatehouseHTTP

/// Responses that flow for as long as the upstream keeps them open — SSE (`text/event-stream`),
/// incremental delivery and multipart subscriptions (`multipart/mixed`): forwarded as each chunk
/// arrives, never gzipped, exempt from the route timeout once the head is out and held to the
/// route's `stream_idle_timeout` instead.
enum StreamedResponse {
    static let eventStream = Array("text/event-stream".utf8)
    static let multipartMixed = Array("multipart/mixed".utf8)

    /// `mediaType`: lowercased, without parameters.
    static func isStreamedMediaType(_ mediaType: [UInt8]) -> Bool {
        mediaType == eventStream || mediaType == multipartMixed
    }

    static func isStreamed(_ response: ResponseHead) -> Bool {
        guard let mediaType = mediaType(of: response) else { return false }
        return isStreamedMediaType(mediaType)
    }

    /// The response's media type, lowercased, without parameters; nil without a Content-Type.
    static func mediaType(of response: ResponseHead) -> [UInt8]? {
        guard let range = response.headerValue(named: HeaderNames.contentType) else { return nil }
        var mediaType = response.bytes[range].prefix { $0 != UInt8(ascii: ";") }
        while let last = mediaType.last, last == 0x20 || last == 0x09 { mediaType = mediaType.dropLast() }
        return mediaType.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }
}
