/// SplitMix64 (Steele, Lea and Flood): a small, fast, seedable generator, and its finalizer as
/// a mix on its own. Neither is cryptographic. The generator serves balancing, which needs
/// unpredictability across processes, not secrecy (`LeastRequestBalancer`); the mix serves the
/// seeded hashes of hot tables (`PreparedCallMemo`, `CacheKey`'s dictionary hash), where SipHash
/// cost more than the rest of the lookup.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The finalizer: bijective, and every input bit reaches every output bit.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
