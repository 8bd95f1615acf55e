import GatehouseConfig
import GatehouseHTTP

/// One upload body as it arrives (README, "Uploads"): every body byte passes the multipart parser
/// and the `UploadManifest` before it may go upstream. Until the preamble (`operations`, then
/// `map`) has been read and checked, the raw bytes are held here, bounded, so the route's
/// operation policy can refuse the upload before an upstream is even connected; after it they
/// stream, and nothing but the parser's lookahead is kept, however large the files.
/// Pure: fed bytes, it answers refusals; the exchange does the I/O (`Exchange+Upload.swift`).
final class UploadStream {
    /// The raw bytes held before any goes upstream: `operations`, `map`, their part headers and
    /// any preamble text. One `UploadManifest.maxJSONPartBytes`, the bound of either part alone,
    /// so a client cannot make the gateway hold more than one such part's worth before it checks.
    static let maxPreambleBytes = UploadManifest.maxJSONPartBytes

    private var parser: MultipartParser
    private(set) var manifest: UploadManifest
    /// What the parser left unconsumed (a tail that may start a delimiter), passed again first.
    private var lookahead: [UInt8] = []
    /// The raw body bytes received before the preamble was complete, forwarded first.
    private var held: [UInt8] = []

    init(boundary: [UInt8], limits: UploadsConfig) {
        parser = MultipartParser(boundary: boundary)
        manifest = UploadManifest(limits: limits)
    }

    /// `operations` and `map` are read and checked: the upload may go upstream.
    var isPreambleRead: Bool { manifest.isReadyToForward }

    /// Whether the close delimiter has been read (and every file the map named had come).
    var isComplete: Bool { manifest.stage == .finished }

    /// Reads the next body bytes; nil, or why the upload is refused (400 or 413).
    func feed(_ bytes: UnsafeRawBufferPointer) -> GatewayError? {
        if !isPreambleRead { held.append(contentsOf: bytes) }
        let refusal: GatewayError?
        if lookahead.isEmpty {
            refusal = parse(bytes)
        } else {
            var joined = lookahead
            lookahead.removeAll()
            joined.append(contentsOf: bytes)
            refusal = joined.withUnsafeBytes { parse($0) }
        }
        if let refusal { return refusal }
        if !isPreambleRead && held.count > Self.maxPreambleBytes {
            return GatewayError(.payloadTooLarge, "The upload's operations and map are too large.")
        }
        return nil
    }

    /// The body ended: it must have ended with the close delimiter.
    func bodyEnded() -> GatewayError? {
        isComplete ? nil : GatewayError(.badRequest, "The upload ended before its closing boundary.")
    }

    /// The held preamble bytes, handed over once for forwarding.
    func takeHeldBytes() -> [UInt8] {
        defer { held = [] }
        return held
    }

    private func parse(_ buffer: UnsafeRawBufferPointer) -> GatewayError? {
        var offset = 0
        while offset < buffer.count && !isComplete {
            let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
            let refusal: GatewayError?
            let consumed: Int
            switch parser.parse(rest) {
            case .partStart(let headers, let used):
                refusal = manifest.partStarted(headers)
                consumed = used
            case .data(let range, let used):
                refusal = manifest.partData(UnsafeRawBufferPointer(rebasing: rest[range]))
                consumed = used
            case .partEnd(let used):
                refusal = manifest.partEnded()
                consumed = used
            case .end:
                // The epilogue after the close delimiter is ignored.
                return manifest.finished()
            case .needMore(let used):
                lookahead.append(contentsOf: rest[used...])
                return nil
            case .invalid(let reason):
                return GatewayError(.badRequest, "The upload is not valid multipart/form-data: \(reason)")
            }
            if let refusal { return refusal }
            offset += consumed
        }
        return nil
    }
}
