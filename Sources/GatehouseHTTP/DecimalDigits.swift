/// Decimal digits written in the order they are computed, least significant first, backwards
/// into a small scratch that is then appended in one copy: filling an array digit by digit pays
/// its bounds and uniqueness checks on every digit.
public enum DecimalDigits {
    /// The most digits a 64-bit magnitude has (`UInt64.max`).
    public static let maximumCount = 20

    /// Writes the digits of `value` so that they end just before `end` in `buffer`, which has
    /// room for `maximumCount` of them there; returns the index of the first.
    @inline(__always)
    public static func write(_ value: UInt, endingAt end: Int, in buffer: UnsafeMutableRawBufferPointer) -> Int {
        var magnitude = value
        var index = end
        repeat {
            index -= 1
            buffer[index] = 0x30 &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return index
    }

    /// The value of `digits`, which must all be ASCII decimal digits (at least one), or nil. The
    /// caller bounds their count, so the value cannot overflow.
    public static func value(of digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte &- 0x30 < 10 else { return nil }
            value = value * 10 + Int(byte &- 0x30)
        }
        return value
    }
}
