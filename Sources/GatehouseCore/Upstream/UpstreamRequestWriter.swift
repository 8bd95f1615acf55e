import GatehouseHTTP
import GatehouseIO

/// Writes the upstream request head (README, "Header rewriting"): the route's upstream path, client headers minus
/// hop-by-hop fields and every header the gateway sets itself, then the injected headers,
/// claims, forwarding headers and the gateway's own body framing.
enum UpstreamRequestWriter {
    static func write(exchange: Exchange, into out: inout ByteBuffer) {
        guard let route = exchange.route else { return }
        let head = exchange.head
        let upstream = exchange.snapshot.upstreams[route.upstreamIndex]
        let rewrite = exchange.rewrite
        head.bytes.withUnsafeBytes { raw in
            if let method = rewrite?.method {
                out.append(method)
            } else {
                out.append(UnsafeRawBufferPointer(rebasing: raw[head.method]))
            }
            out.append(byte: 0x20)
            if let target = rewrite?.target {
                out.append(target)
            } else {
                writePath(route: route, path: UnsafeRawBufferPointer(rebasing: raw[head.path]), into: &out)
                if let query = rewrite?.query {
                    if !query.isEmpty {
                        out.append(byte: UInt8(ascii: "?"))
                        out.append(query)
                    }
                } else if let query = head.query {
                    ForwardedQuery.write(UnsafeRawBufferPointer(rebasing: raw[query]), queryStart: query.lowerBound,
                                         omitting: exchange.tokenQueryParameter, into: &out)
                }
            }
            out.append(" HTTP/1.1\r\n")
            out.append(upstream.hostLine)
            var forwardedFor: UnsafeRawBufferPointer?
            let trustedPeer = exchange.clientIsTrustedProxy
            // Options named in `Connection` are rare: the field-by-field check runs only when there are some.
            let namesOptions = !head.connectionOptions.isEmpty
            let dropsContentType = rewrite?.contentTypeJSON == true
            var lines = HeadLineRun()
            for field in head.headers {
                let name = UnsafeRawBufferPointer(rebasing: raw[field.name])
                if HopByHop.isHopByHop(name) || namesOptions && head.isHopByHop(field, in: raw)
                    || isDropped(name, route.droppedHeaderNames)
                    || ClientAssertedHeaders.isDropped(name, trustedPeer: trustedPeer)
                    || (dropsContentType && HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.contentType)) {
                    if forwardedFor == nil && HeaderNames.asciiCaseInsensitiveEquals(name, HeaderNames.xForwardedFor) {
                        forwardedFor = UnsafeRawBufferPointer(rebasing: raw[field.value])
                    }
                    continue
                }
                if lines.add(field, from: raw, into: &out) { continue }
                out.append(name)
                out.append(": ")
                out.append(UnsafeRawBufferPointer(rebasing: raw[field.value]))
                out.append("\r\n")
            }
            lines.flush(from: raw, into: &out)
            out.append(route.injectedHeaderBlock)
            out.append(exchange.claimHeaderBlock)
            if let webSocket = exchange.webSocket { out.append(webSocket.upstreamHeaderBlock) }
            out.append("X-Forwarded-For: ")
            if let forwardedFor, forwardedFor.count > 0, trustedPeer {
                out.append(forwardedFor)
                out.append(", ")
            }
            out.append(string: exchange.connection.client.text)
            out.append(exchange.connection.isTLS ? "\r\nX-Forwarded-Proto: https\r\nX-Request-Id: "
                                                 : "\r\nX-Forwarded-Proto: http\r\nX-Request-Id: ")
            out.append(exchange.requestID)
            out.append("\r\ntraceparent: ")
            exchange.traceContext.withHeaderValue { out.append($0) }
            if let rewrite {
                if rewrite.contentTypeJSON { out.append("\r\nContent-Type: application/json") }
                if let body = rewrite.body {
                    out.append("\r\nContent-Length: ")
                    out.append(decimal: body.count)
                }
                out.append("\r\n\r\n")
                return
            }
            if let length = exchange.forwardedBodyLength {
                // Read whole by the gateway (a chunked body too): its length is known.
                out.append("\r\nContent-Length: ")
                out.append(decimal: length)
            } else {
                switch head.framing {
                case .contentLength(let length):
                    out.append("\r\nContent-Length: ")
                    out.append(decimal: length)
                case .chunked:
                    out.append("\r\nTransfer-Encoding: chunked")
                case .none:
                    if head.methodKind == .post || head.methodKind == .put || head.methodKind == .patch {
                        out.append("\r\nContent-Length: 0")
                    }
                }
            }
            out.append("\r\n\r\n")
        }
    }

    /// Exact routes go to the upstream base path; prefix routes append what follows the prefix.
    private static func writePath(route: CompiledRoute, path: UnsafeRawBufferPointer, into out: inout ByteBuffer) {
        guard route.isPrefix else {
            out.append(route.upstreamBase)
            return
        }
        out.append(route.upstreamBase)
        let remainder = UnsafeRawBufferPointer(rebasing: path[route.matchBytes.count...])
        if route.upstreamBase.last != UInt8(ascii: "/") && !remainder.isEmpty { out.append(byte: UInt8(ascii: "/")) }
        out.append(remainder)
    }

    /// Case-insensitive, and `_` counts as `-`: some backends read `X_User_Id` as `X-User-Id`,
    /// so a client must not slip a gateway-set header through with underscores.
    @inline(__always)
    private static func isDropped(_ name: UnsafeRawBufferPointer, _ dropped: [[UInt8]]) -> Bool {
        for candidate in dropped where candidate.count == name.count {
            var equal = true
            for index in 0..<name.count {
                var byte = name[index]
                if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
                if byte == UInt8(ascii: "_") { byte = UInt8(ascii: "-") }
                if byte != candidate[index] {
                    equal = false
                    break
                }
            }
            if equal { return true }
        }
        return false
    }
}
