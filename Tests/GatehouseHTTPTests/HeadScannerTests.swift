import Testing
@testable import GatehouseHTTP

/// `HeadScanner` skips plain bytes 64 and 16 at a time (SSE2), then 8, and jumps to the first
/// control byte of a block or word; fed one byte more per call it takes the byte path almost
/// always. Both must reach the same verdict for every byte class at every position and for
/// limits that fall inside, at and just past a word.
@Suite("Head scanning: the word path agrees with the byte path")
struct HeadScannerTests {
    static let head = Array("GET /a/long/enough/path HTTP/1.1\r\nHost: example\r\nX-Token: abcdefghijklmnop\r\n\r\n".utf8)
    /// A value several 64-byte strides long, with lines that end inside and across words.
    static let longHead = Array(("GET / HTTP/1.1\r\nAuthorization: Bearer " + String(repeating: "eyJhbGciOi.", count: 17)
                                 + "\r\nA: b\r\n\r\n").utf8)
    /// Control bytes, HTAB, CR, LF, DEL, obs-text and a plain byte.
    static let probes: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xFF]

    static func whole(_ bytes: [UInt8], _ scanner: HeadScanner) -> HeadScanner.Outcome {
        bytes.withUnsafeBytes { scanner.scan($0, from: 0) }
    }

    /// The outcome when the bytes arrive one at a time, each call resuming where the last stopped.
    static func trickled(_ bytes: [UInt8], _ scanner: HeadScanner) -> HeadScanner.Outcome {
        var resume = 0
        for length in 1...bytes.count {
            let outcome = bytes.withUnsafeBytes { scanner.scan(UnsafeRawBufferPointer(rebasing: $0[0..<length]), from: resume) }
            guard case .incomplete(let scanned) = outcome else { return outcome }
            resume = scanned
        }
        return .incomplete(scanned: bytes.count)
    }

    static let cases: [(head: [UInt8], limits: [(Int?, Int)])] = [
        (head, [(nil, 4096), (20, 4096), (33, 70), (8, 16), (nil, 24)]),
        (longHead, [(nil, 4096), (14, 4096), (nil, 60), (16, 77), (nil, 100)]),
    ]

    @Test(arguments: probes, [0, 1])
    func everyPositionAgrees(_ probe: UInt8, _ caseIndex: Int) {
        let (head, limits) = Self.cases[caseIndex]
        for position in 0..<head.count {
            var bytes = head
            bytes[position] = probe
            for (firstLine, headBytes) in limits {
                let scanner = HeadScanner(lineStart: 0, maxFirstLine: firstLine, maxHeadBytes: headBytes)
                let expected = Self.trickled(bytes, scanner)
                let outcome = Self.whole(bytes, scanner)
                if case .incomplete = expected {
                    guard case .incomplete = outcome else {
                        Issue.record("byte \(probe) at \(position), limits \(String(describing: firstLine))/\(headBytes): \(outcome)")
                        continue
                    }
                } else {
                    #expect(outcome == expected, "byte \(probe) at \(position), limits \(String(describing: firstLine))/\(headBytes)")
                }
            }
        }
    }

    @Test func aPlainHeadEndsAfterItsEmptyLine() {
        let scanner = HeadScanner(lineStart: 0, maxFirstLine: nil, maxHeadBytes: 4096)
        #expect(Self.whole(Self.head, scanner) == .complete(end: Self.head.count))
        #expect(Self.trickled(Self.head, scanner) == .complete(end: Self.head.count))
        #expect(Self.whole(Self.longHead, scanner) == .complete(end: Self.longHead.count))
    }
}
