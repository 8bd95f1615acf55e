import Testing
@testable import GatehouseHTTP

// MARK: - Feeding a request parser as a connection would

/// Feeds `input` in the pieces of `split`, calling the parser after each piece with the bytes
/// received so far, as the connection layer does. Also checks the O(n) contract: after every
/// `.incomplete`, at most a trailing CR remains unscanned.
func feedRequest(_ input: [UInt8], limits: HTTPLimits = HTTPLimits(), split: Split) -> RequestParseResult {
    let parser = RequestHeadParser(limits: limits)
    var received: [UInt8] = []
    var scanned = 0
    for length in split.pieces(input.count) {
        received.append(contentsOf: input[received.count..<(received.count + length)])
        let result = received.withUnsafeBytes { parser.parse($0, scanned: &scanned) }
        guard case .incomplete = result else { return result }
        #expect(scanned <= received.count)
        #expect(scanned >= received.count - 1 || received.allSatisfy { $0 == 0x0D || $0 == 0x0A },
                "a later call would rescan bytes already looked at")
    }
    return .incomplete
}

/// Parses `input` in every split and expects the same answer from each; returns it.
func parseRequestEveryWay(_ input: [UInt8], limits: HTTPLimits = HTTPLimits(),
                          sourceLocation: SourceLocation = #_sourceLocation) -> RequestParseResult {
    let reference = feedRequest(input, limits: limits, split: .whole)
    for split in Split.all.dropFirst() {
        let result = feedRequest(input, limits: limits, split: split)
        #expect(result == reference, "\(split) differs from whole", sourceLocation: sourceLocation)
    }
    return reference
}

/// The head of a `.complete` answer, or a recorded failure.
func requireHead(_ result: RequestParseResult, sourceLocation: SourceLocation = #_sourceLocation) -> RequestHead? {
    guard case .complete(let head, _) = result else {
        Issue.record("expected a complete head, got \(result)", sourceLocation: sourceLocation)
        return nil
    }
    return head
}
