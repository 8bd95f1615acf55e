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
        // Most hits carry no If-None-Match: the ETag is only compared when one is sent.
        let notModified = head.headerValue(named: "if-none-match").map { value in
            entry.withETag { Self.matches(ifNoneMatch: head.bytes[value], etag: $0) }
        } ?? false
        status = notModified ? 304 : 200
        stage = .responded
        writeCachedResponse(reply, notModified: notModified, now: now, into: &connection.output)
        connection.flushOutput()
    }

    /// The whole response in one access to the output: each `connection.output` access on its
    /// own retains the connection, and the entry's parts are written in place, not sliced.
    private func writeCachedResponse(_ reply: CachedReply, notModified: Bool, now: UInt64, into out: inout ByteBuffer) {
        let entry = reply.entry
        out.append(notModified ? "HTTP/1.1 304 Not Modified\r\n" : "HTTP/1.1 200 OK\r\n")
        entry.withParts { headerBlock, body, etag in
            out.append(headerBlock)
            if !notModified {
                out.append("Content-Length: ")
                out.append(decimal: body.count)
                out.append("\r\n")
            }
            out.append("Cache-Status: ")
            reply.writeCacheStatus(into: &out, now: now)
            out.append("\r\nAge: ")
            out.append(decimal: entry.ageSeconds(at: now))
            out.append(entry.isPublic ? "\r\nCache-Control: public, max-age=" : "\r\nCache-Control: private, max-age=")
            out.append(decimal: max(0, entry.ttlSeconds(at: now)))
            out.append("\r\nETag: ")
            out.append(etag)
            out.append("\r\n")
            appendHeadEnd(keepAlive: keepAlive && !worker.isDraining, to: &out)
            if !notModified && head.methodKind != .head { out.append(body) }
        }
    }

    /// `If-None-Match: "a", W/"b"` or `*` against a strong ETag (weak comparison, as RFC 9110
    /// asks for `If-None-Match`).
    static func matches<Tag: Collection<UInt8>>(ifNoneMatch value: ArraySlice<UInt8>?, etag: Tag) -> Bool {
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
