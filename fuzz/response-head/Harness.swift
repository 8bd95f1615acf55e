// libFuzzer entry for ResponseHeadParser (what upstreams send back, README, "How a request is handled"): no input may
// crash it, and whole or split parsing must agree, for GET and for HEAD requests.
import GatehouseHTTP

private let parser = ResponseHeadParser(maxHeadBytes: 8 * 1024)

private func kind(_ result: ResponseParseResult) -> String {
    switch result {
    case .complete(let head, let consumed): return "complete \(consumed) \(head)"
    case .incomplete: return "incomplete"
    case .invalid: return "invalid"
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    for method in [HTTPMethod.get, .head] {
        var scanned = 0
        let whole = parser.parse(bytes, requestMethod: method, scanned: &scanned)
        if case .complete(_, let consumed) = whole {
            precondition(consumed > 0 && consumed <= size)
        }
        guard size > 1 else { continue }
        let split = Int(data[0]) % size
        scanned = 0
        var pieces = parser.parse(UnsafeRawBufferPointer(rebasing: bytes[..<split]), requestMethod: method,
                                  scanned: &scanned)
        if case .incomplete = pieces {
            pieces = parser.parse(bytes, requestMethod: method, scanned: &scanned)
        }
        precondition(kind(whole) == kind(pieces), "split at \(split): \(kind(whole)) vs \(kind(pieces))")
    }
    return 0
}
