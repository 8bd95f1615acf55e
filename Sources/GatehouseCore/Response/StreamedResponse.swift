import GatehouseHTTP

/// Responses that flow for as long as the upstream keeps them open — SSE (`text/event-stream`),
/// incremental delivery and multipart subscriptions (`multipart/mixed`): forwarded as each chunk
/// arrives, never gzipped, exempt from the route timeout once the head is out and held to the
/// route's `stream_idle_timeout` instead.
enum StreamedResponse {
    // Literals, not arrays in statics: a static array is made lazily, a `swift_once` per read,
    // and every response asks.
    static let eventStream: StaticString = "text/event-stream"
    static let multipartMixed: StaticString = "multipart/mixed"

    /// `mediaType`: lowercased, without parameters.
    static func isStreamedMediaType(_ mediaType: [UInt8]) -> Bool {
        mediaType.elementsEqual(bytes(of: eventStream)) || mediaType.elementsEqual(bytes(of: multipartMixed))
    }

    private static func bytes(of text: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Looked at for every response, so compared in place: no copy of the header value, and no
    /// search for it (the parser noted where it is).
    static func isStreamed(_ response: ResponseHead) -> Bool {
        guard let range = response.contentType else { return false }
        return response.bytes.withUnsafeBytes { raw in
            let value = UnsafeRawBufferPointer(rebasing: raw[range])
            return hasMediaType(value, eventStream) || hasMediaType(value, multipartMixed)
        }
    }

    /// Whether `value` (a Content-Type) names `mediaType` (lowercase): case-insensitively, up to
    /// parameters and trailing whitespace.
    private static func hasMediaType(_ value: UnsafeRawBufferPointer, _ mediaType: StaticString) -> Bool {
        let count = mediaType.utf8CodeUnitCount
        guard value.count >= count else { return false }
        for index in 0..<count {
            let byte = value[index]
            if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != mediaType.utf8Start[index] { return false }
        }
        for index in count..<value.count {
            switch value[index] {
            case 0x20, 0x09: continue
            case UInt8(ascii: ";"): return true
            default: return false
            }
        }
        return true
    }

    /// The response's media type, lowercased, without parameters; nil without a Content-Type.
    static func mediaType(of response: ResponseHead) -> [UInt8]? {
        guard let range = response.contentType else { return nil }
        var mediaType = response.bytes[range].prefix { $0 != UInt8(ascii: ";") }
        while let last = mediaType.last, last == 0x20 || last == 0x09 { mediaType = mediaType.dropLast() }
        return mediaType.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }
}
