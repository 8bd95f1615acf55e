@testable import GatehouseHTTP

// MARK: - Input splits

/// How a test input is cut into the pieces a socket might deliver.
enum Split: Sendable, CustomStringConvertible {
    case whole
    case byteByByte
    case random(seed: UInt64)

    /// Every parser case runs in all of these and must give the same answer.
    static let all: [Split] = [.whole, .byteByByte, .random(seed: 1), .random(seed: 7), .random(seed: 42)]

    /// Piece lengths covering `count` bytes.
    func pieces(_ count: Int) -> [Int] {
        switch self {
        case .whole:
            return [count]
        case .byteByByte:
            return Array(repeating: 1, count: count)
        case .random(let seed):
            var generator = SplitMix64(seed: seed)
            var lengths: [Int] = []
            var left = count
            while left > 0 {
                let length = min(left, Int(generator.next() % 9) + 1)
                lengths.append(length)
                left -= length
            }
            return lengths
        }
    }

    var description: String {
        switch self {
        case .whole: return "whole"
        case .byteByByte: return "byte by byte"
        case .random(let seed): return "random splits (seed \(seed))"
        }
    }
}

/// A small deterministic generator so random splits are reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The bytes of a test literal; `\u{00}`-style escapes produce control bytes and `\u{E9}` becomes
/// UTF-8 (obs-text).
func bytes(_ text: String) -> [UInt8] {
    Array(text.utf8)
}
