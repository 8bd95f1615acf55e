import CLinux
import GatehouseIO

/// Makes request ids (128 bits from a per-worker xoshiro256** generator seeded by the kernel,
/// written as 32 hex digits) and checks client-sent ones. It is the worker's random source for trace ids too.
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

    mutating func make() -> RequestID {
        let high = next()
        return RequestID(high: high, low: next())
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

/// A request's id: one the worker made, or the client's acceptable `X-Request-Id`. A made id is
/// kept as its two words and written as hex digits where it goes (upstream head, response head,
/// error envelope, access log), so a request allocates no string for its id.
public struct RequestID: Equatable, CustomStringConvertible {
    private enum Value: Equatable {
        case made(high: UInt64, low: UInt64)
        /// Checked by `RequestIDGenerator.isAcceptable`: [A-Za-z0-9._-] only.
        case client(String)
    }

    private let value: Value

    init(high: UInt64, low: UInt64) { value = .made(high: high, low: low) }
    /// The client's id, once `RequestIDGenerator.isAcceptable` passed it.
    init(client: String) { value = .client(client) }

    /// Calls `body` with the id's characters: hex digits or [A-Za-z0-9._-], none of which JSON
    /// or a header value needs escaped.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        switch value {
        case .made(let high, let low):
            var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            return withUnsafeMutableBytes(of: &digits) { digits in
                LowercaseHex.write(high, to: digits.baseAddress!)
                LowercaseHex.write(low, to: digits.baseAddress! + 16)
                return body(UnsafeRawBufferPointer(digits))
            }
        case .client(var text):
            return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
    }

    public var description: String { withBytes { String(decoding: $0, as: UTF8.self) } }
}

extension ByteBuffer {
    mutating func append(_ id: RequestID) { id.withBytes { append($0) } }
}
