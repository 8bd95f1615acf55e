import GatehouseHTTP
import GatehouseIO

/// Writing a response from the cache: status 200 with the stored headers and body, or 304 when
/// the client's `If-None-Match` names the entry's ETag. Written by the gateway, not pumped.
extension Exchange {
    func serveCached(_ reply: CachedReply) {
        let entry = reply.entry
        let now = loop.now
        if case .input(let length) = body {
            // A POST body read to find the operation is not forwarded; it leaves the input here.
            connection.input.consume(length)
            bytesIn += length
            body = .none
        }
        let notModified = Self.matches(ifNoneMatch: head.headerValue(named: "if-none-match").map { head.bytes[$0] },
                                       etag: entry.etag)
        status = notModified ? 304 : 200
        stage = .responded
        let freshSeconds = max(0, entry.ttlSeconds(at: now))
        connection.output.append(notModified ? "HTTP/1.1 304 Not Modified\r\n" : "HTTP/1.1 200 OK\r\n")
        connection.output.append(entry.headerBlock)
        if !notModified {
            connection.output.append("Content-Length: ")
            connection.output.append(decimal: entry.body.count)
            connection.output.append("\r\n")
        }
        connection.output.append("Cache-Status: ")
        reply.writeCacheStatus(into: &connection.output, now: now)
        connection.output.append("\r\nAge: ")
        connection.output.append(decimal: entry.ageSeconds(at: now))
        connection.output.append(entry.isPublic ? "\r\nCache-Control: public, max-age=" : "\r\nCache-Control: private, max-age=")
        connection.output.append(decimal: freshSeconds)
        connection.output.append("\r\nETag: ")
        connection.output.append(entry.etag)
        connection.output.append("\r\n")
        appendExtraFields(to: &connection.output)
        connection.output.append("X-Request-Id: ")
        connection.output.append(string: requestID)
        let keepOpen = keepAlive && !worker.isDraining
        if !keepOpen {
            connection.output.append("\r\nConnection: close\r\n\r\n")
        } else if head.version == .http10 {
            connection.output.append("\r\nConnection: keep-alive\r\n\r\n")
        } else {
            connection.output.append("\r\n\r\n")
        }
        if !notModified && head.methodKind != .head { connection.output.append(entry.body) }
        connection.flushOutput()
    }

    /// `If-None-Match: "a", W/"b"` or `*` against a strong ETag (weak comparison, as RFC 9110
    /// asks for `If-None-Match`).
    static func matches(ifNoneMatch value: ArraySlice<UInt8>?, etag: ArraySlice<UInt8>) -> Bool {
        guard let value else { return false }
        var matched = false
        FieldList.forEachItem(in: value) { item in
            var tag = item
            if tag.count == 1 && tag.first == UInt8(ascii: "*") {
                matched = true
            } else {
                if tag.starts(with: Self.weakPrefix) { tag = tag.dropFirst(Self.weakPrefix.count) }
                matched = tag.elementsEqual(etag)
            }
            return !matched
        }
        return matched
    }

    private static let weakPrefix: [UInt8] = Array("W/".utf8)
}
