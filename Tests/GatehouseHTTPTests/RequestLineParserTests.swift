import Testing
@testable import GatehouseHTTP

/// The request target is scanned a word at a time; every byte value at every position of a
/// target (inside a word, at its edges, in the byte-by-byte tail) must get the verdict and the
/// path/query split that a plain byte-by-byte reading gives.
struct RequestLineParserTests {
    static let target = Array("/abcdefghijklmnopqrstuvw/xyz?k=v&x".utf8)

    /// Byte by byte: the target ends at the first SP; a control byte, DEL, obs-text or `#`
    /// before it is refused; the first `?` splits path from query.
    static func reference(_ target: [UInt8]) -> (path: Range<Int>, query: Range<Int>?)? {
        let start = 4  // after "GET "
        var questionMark: Int?
        for (offset, byte) in target.enumerated() {
            if byte == 0x20 { return nil }  // a second SP: the version part would not parse
            guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "#") else { return nil }
            if byte == UInt8(ascii: "?"), questionMark == nil { questionMark = start + offset }
        }
        let end = start + target.count
        return (start..<(questionMark ?? end), questionMark.map { ($0 + 1)..<end })
    }

    @Test func everyByteAtEveryPositionAgrees() {
        for position in 1..<Self.target.count {
            for value in 0...255 {
                var target = Self.target
                target[position] = UInt8(value)
                let line = Array("GET ".utf8) + target + Array(" HTTP/1.1".utf8)
                let parsed = line.withUnsafeBytes { RequestLineParser.parse($0, from: 0, to: line.count) }
                let expected = Self.reference(target)
                switch parsed {
                case .success(let result):
                    #expect(expected != nil, "byte \(value) at \(position) was accepted")
                    #expect(result.path == expected?.path, "byte \(value) at \(position)")
                    #expect(result.query == expected?.query, "byte \(value) at \(position)")
                case .failure:
                    #expect(expected == nil, "byte \(value) at \(position) was refused")
                }
            }
        }
    }
}
