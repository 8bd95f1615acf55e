// libFuzzer entry for RequestHeadParser (README, "How a request is handled"): no input may crash it, and parsing the
// bytes whole or in two pieces (as they arrive over TCP) must give the same answer.
import GatehouseHTTP

private let parser = RequestHeadParser(limits: HTTPLimits(maxRequestLine: 1024, maxHeaderBytes: 4096, maxHeaders: 32))

private enum Outcome: Equatable {
    case complete(RequestHead, Int)
    case incomplete
    case invalid
}

private func outcome(_ result: RequestParseResult) -> Outcome {
    switch result {
    case .complete(let head, let consumed): return .complete(head, consumed)
    case .incomplete: return .incomplete
    case .invalid: return .invalid
    }
}

private func parseWhole(_ bytes: UnsafeRawBufferPointer) -> Outcome {
    var scanned = 0
    return outcome(parser.parse(bytes, scanned: &scanned))
}

/// Feeds `bytes[..<split]` first, then all of it, as a connection would.
private func parseInTwo(_ bytes: UnsafeRawBufferPointer, split: Int) -> Outcome {
    var scanned = 0
    let first = outcome(parser.parse(UnsafeRawBufferPointer(rebasing: bytes[..<split]), scanned: &scanned))
    if first != .incomplete { return first }
    return outcome(parser.parse(bytes, scanned: &scanned))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let whole = parseWhole(bytes)
    if case .complete(let head, let consumed) = whole {
        precondition(consumed > 0 && consumed <= size, "consumed \(consumed) of \(size)")
        precondition(head.target.upperBound <= head.bytes.count && head.path.upperBound <= head.bytes.count)
        for field in head.headers {
            precondition(field.name.upperBound <= head.bytes.count && field.value.upperBound <= head.bytes.count)
        }
    }
    guard size > 1 else { return 0 }
    let split = Int(data[0]) % size
    let pieces = parseInTwo(bytes, split: split)
    switch (whole, pieces) {
    case (.invalid, .invalid), (.incomplete, .incomplete):
        break
    case (.complete(let a, let n), .complete(let b, let m)):
        precondition(a == b && n == m, "the head parsed differently when split at \(split)")
    default:
        preconditionFailure("whole: \(whole), split at \(split): \(pieces)")
    }
    return 0
}
