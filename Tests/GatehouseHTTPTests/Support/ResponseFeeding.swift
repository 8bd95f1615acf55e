import Testing
@testable import GatehouseHTTP

// MARK: - Feeding a response parser as an upstream connection would

func feedResponse(_ input: [UInt8], requestMethod: HTTPMethod, maxHeadBytes: Int, split: Split) -> ResponseParseResult {
    let parser = ResponseHeadParser(maxHeadBytes: maxHeadBytes)
    var received: [UInt8] = []
    var scanned = 0
    for length in split.pieces(input.count) {
        received.append(contentsOf: input[received.count..<(received.count + length)])
        let result = received.withUnsafeBytes { parser.parse($0, requestMethod: requestMethod, scanned: &scanned) }
        guard case .incomplete = result else { return result }
        #expect(scanned >= received.count - 1, "a later call would rescan bytes already looked at")
    }
    return .incomplete
}

/// Parses `input` in every split and expects the same answer from each; returns it.
func parseResponseEveryWay(_ input: [UInt8], requestMethod: HTTPMethod = .post,
                           maxHeadBytes: Int = ResponseHeadParser.defaultMaxHeadBytes,
                           sourceLocation: SourceLocation = #_sourceLocation) -> ResponseParseResult {
    let reference = feedResponse(input, requestMethod: requestMethod, maxHeadBytes: maxHeadBytes, split: .whole)
    for split in Split.all.dropFirst() {
        let result = feedResponse(input, requestMethod: requestMethod, maxHeadBytes: maxHeadBytes, split: split)
        #expect(result == reference, "\(split) differs from whole", sourceLocation: sourceLocation)
    }
    return reference
}
