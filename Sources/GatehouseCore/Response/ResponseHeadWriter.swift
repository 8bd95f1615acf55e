import GatehouseHTTP
import GatehouseIO

/// Writes the client's response head from the upstream's: hop-by-hop fields dropped, the
/// framing the gateway will use, and the request id.
enum ResponseHeadWriter {
    static func write(_ response: ResponseHead, exchange: Exchange, keepAlive: Bool, into out: inout ByteBuffer) {
        out.append("HTTP/1.1 ")
        out.append(decimal: response.status)
        out.append(byte: 0x20)
        out.append(response.bytes[response.reason])
        out.append("\r\n")
        let compressing = exchange.gzip != nil
        var chunkedToClient = false
        var rewritesLength = compressing
        if compressing {
            chunkedToClient = exchange.head.version == .http11
        } else if case .chunked(_, let verbatim) = exchange.responseBody {
            chunkedToClient = verbatim
            rewritesLength = !verbatim
        }
        var sawVary = false
        // Options named in `Connection` are rare: the field-by-field check runs only when there are some.
        let namesOptions = !response.connectionOptions.isEmpty
        response.bytes.withUnsafeBytes { raw in
            var lines = HeadLineRun()
            for field in response.headers {
                let name = UnsafeRawBufferPointer(rebasing: raw[field.name])
                if HopByHop.isHopByHop(name) || namesOptions && response.isHopByHop(field, in: raw)
                    || HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.xRequestID)
                    || rewritesLength && HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.contentLength) {
                    continue
                }
                let rewritten = compressing && (HeaderNames.asciiCaseInsensitiveEquals(name, "etag")
                                                || HeaderNames.asciiCaseInsensitiveEquals(name, "vary"))
                if !rewritten, lines.add(field, from: raw, into: &out) { continue }
                lines.flush(from: raw, into: &out)
                let value = UnsafeRawBufferPointer(rebasing: raw[field.value])
                out.append(name)
                out.append(": ")
                if compressing && HeaderNames.asciiCaseInsensitiveEquals(name, "etag") && value.first == UInt8(ascii: "\"") {
                    out.append("W/")  // the compressed body is not byte-identical: the validator is weak
                }
                out.append(value)
                if compressing && HeaderNames.asciiCaseInsensitiveEquals(name, "vary") {
                    sawVary = true
                    out.append(", Accept-Encoding")
                }
                out.append("\r\n")
            }
            lines.flush(from: raw, into: &out)
        }
        if compressing {
            out.append("Content-Encoding: gzip\r\n")
            if !sawVary { out.append("Vary: Accept-Encoding\r\n") }
        }
        if chunkedToClient { out.append("Transfer-Encoding: chunked\r\n") }
        exchange.appendHeadEnd(keepAlive: keepAlive, to: &out)
    }
}
