import CLinux

/// Makes request ids (32 hex digits from a per-worker xoshiro256** generator seeded by the
/// kernel) and checks client-sent ones. It is the worker's random source for trace ids too.
struct RequestIDGenerator: RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init() {
        withUnsafeMutableBytes(of: &state) { _ = gh_getrandom($0.baseAddress, $0.count) }
        if state == (0, 0, 0, 0) { state.0 = 0x9E37_79B9_7F4A_7C15 }
    }

    mutating func next() -> UInt64 {
        let result = rotl(state.1 &* 5, 7) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = rotl(state.3, 45)
        return result
    }

    @inline(__always)
    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    mutating func make() -> String {
        let high = next(), low = next()
        return String(unsafeUninitializedCapacity: 32) { buffer in
            let digits: StaticString = "0123456789abcdef"
            let table = digits.utf8Start
            for i in 0..<16 {
                buffer[i] = table[Int((high >> UInt64(60 - 4 * i)) & 0xF)]
                buffer[16 + i] = table[Int((low >> UInt64(60 - 4 * i)) & 0xF)]
            }
            return 32
        }
    }

    /// A client id is kept (README, "How a request is handled") when it is 1–128 characters of [A-Za-z0-9._-].
    static func isAcceptable(_ value: UnsafeRawBufferPointer) -> Bool {
        guard value.count >= 1 && value.count <= 128 else { return false }
        for byte in value {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                continue
            default:
                return false
            }
        }
        return true
    }
}
