import GatehouseConfig
import GatehouseHTTP

/// Whether the gateway gzips a response (`server.compression`): the client accepts gzip, the
/// body is JSON or text of the configured types, large enough (or of unknown length), not
/// already encoded, not a streamed response (SSE, multipart/mixed), and the upstream did not
/// forbid transformation.
enum ResponseCompression {
    static func applies(request: RequestHead, response: ResponseHead, config: CompressionConfig) -> Bool {
        guard config.enabled, request.methodKind != .head, response.status >= 200,
              response.status != 204, response.status != 304 else { return false }
        switch response.framing {
        case .none: return false
        case .contentLength(let length): if length < config.minSize || length == 0 { return false }
        case .chunked, .closeDelimited: break
        }
        guard acceptsGzip(request) else { return false }
        if let encoding = response.headerValue(named: "content-encoding") {
            let value = lowercased(response.bytes[encoding])
            if !value.isEmpty && value != Array("identity".utf8) { return false }
        }
        if let cacheControl = response.headerValue(named: HeaderNames.cacheControl),
           contains(lowercased(response.bytes[cacheControl]), "no-transform") { return false }
        guard let wanted = StreamedResponse.mediaType(of: response) else { return false }
        // A streamed response must reach the client chunk by chunk; gzip would hold bytes back.
        if StreamedResponse.isStreamedMediaType(wanted) { return false }
        return config.types.contains { Array($0.utf8) == wanted }
    }

    /// `Accept-Encoding` lists gzip (or `*`) without `q=0`.
    static func acceptsGzip(_ request: RequestHead) -> Bool {
        var accepted = false
        for field in request.headers {
            guard HeaderNames.asciiCaseInsensitiveEquals(request.bytes[field.name], "accept-encoding") else { continue }
            for item in lowercased(request.bytes[field.value]).split(separator: UInt8(ascii: ",")) {
                let parts = item.split(separator: UInt8(ascii: ";"), maxSplits: 1)
                let coding = trimmed(parts.first ?? [])
                guard coding == Array("gzip".utf8) || coding == Array("x-gzip".utf8) || coding == [UInt8(ascii: "*")] else {
                    continue
                }
                if parts.count == 2 {
                    let parameter = trimmed(parts[1]).filter { $0 != 0x20 }
                    if parameter.starts(with: Array("q=0".utf8)) && parameter.dropFirst(3).allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") }) {
                        if coding != [UInt8(ascii: "*")] { return false }
                        continue
                    }
                }
                accepted = true
            }
        }
        return accepted
    }

    private static func lowercased<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    private static func trimmed<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var slice = Array(bytes)[...]
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return Array(slice)
    }

    private static func contains(_ haystack: [UInt8], _ needle: StaticString) -> Bool {
        let pattern = Array(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
        guard haystack.count >= pattern.count else { return false }
        for start in 0...(haystack.count - pattern.count) where haystack[start..<start + pattern.count].elementsEqual(pattern) {
            return true
        }
        return false
    }
}

/// The zlib stream of one compressed response, with the scratch buffer its output goes through.
final class ResponseGzip {
    var encoder: GzipEncoder
    var scratch: [UInt8] = []
    let level: Int

    init(level: Int) {
        self.level = level
        encoder = GzipEncoder(level: Int32(level))
        scratch.reserveCapacity(16 * 1024)
    }
}

/// A worker's spare gzip streams: zlib's state (about 256 KiB) is reset and reused instead of
/// allocated and initialised for every compressed response.
final class GzipStreamPool {
    private var spare: [ResponseGzip] = []
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func take(level: Int) -> ResponseGzip {
        while let gzip = spare.popLast() {
            if gzip.level == level { return gzip }
        }
        return ResponseGzip(level: level)
    }

    func recycle(_ gzip: ResponseGzip) {
        guard spare.count < limit else { return }
        gzip.encoder.reset()
        gzip.scratch.removeAll(keepingCapacity: true)
        spare.append(gzip)
    }
}
