// libFuzzer entry for ChunkedDecoder: no input may crash it, and decoding the bytes whole or one
// byte at a time must give the same body and the same end (or the same refusal).
import GatehouseHTTP

private struct Decoded: Equatable {
    var body: [UInt8] = []
    var end: Int?  // bytes consumed through the end of the body, when it ended
    var invalid = false
}

/// Decodes `bytes` delivered in pieces of `piece` bytes (0: all at once).
private func decode(_ bytes: UnsafeRawBufferPointer, piece: Int) -> Decoded {
    var decoder = ChunkedDecoder()
    var result = Decoded()
    var pending: [UInt8] = []
    var offset = 0
    var fed = 0
    while fed < bytes.count || !pending.isEmpty {
        if fed < bytes.count {
            let take = piece == 0 ? bytes.count - fed : min(piece, bytes.count - fed)
            pending += bytes[fed..<(fed + take)]
            fed += take
        }
        var progressed = true
        while progressed && !pending.isEmpty {
            progressed = false
            let step = pending.withUnsafeBytes { decoder.decode($0) }
            switch step {
            case .data(let range, let consumed):
                result.body += pending[range]
                pending.removeFirst(consumed)
                offset += consumed
                progressed = consumed > 0
            case .needMore(let consumed):
                pending.removeFirst(consumed)
                offset += consumed
                progressed = consumed > 0
            case .end(let consumed):
                result.end = offset + consumed
                return result
            case .invalid:
                result.invalid = true
                return result
            }
        }
        if fed >= bytes.count { break }
    }
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunked(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let whole = decode(bytes, piece: 0)
    let byteByByte = decode(bytes, piece: 1)
    precondition(whole == byteByByte, "whole \(whole) differs from byte by byte \(byteByByte)")
    if let end = whole.end {
        precondition(end <= size && whole.body.count < end, "end \(end) of \(size)")
    }
    return 0
}
