import GatehouseHTTP

/// Tokens one worker has verified recently for one JWT provider, so a client sending the same
/// token on every request pays for signature verification once (an RS256 check costs tens of
/// microseconds). Entries answer at most `maxAge` seconds and never past the token's own `exp`
/// (plus leeway): expiry, `nbf` and key rotation are re-checked by a full verification soon
/// after they matter. Per worker, so no locks; per provider, so a reload starts empty.
///
/// An open-addressed table of `slotCount` slots probed at most `probeLimit` deep. Slots are
/// replaced, never emptied, so a probe ends at the first empty slot; when a token's whole probe
/// window is taken, the entry that would stop answering first makes way. A hit costs an index
/// computation, a length check and one `memcmp`, and hands back one object.
final class VerifiedTokenCache {
    /// One verified token and everything a request that presents it again needs.
    final class Entry {
        let token: [UInt8]
        let claims: VerifiedClaims
        /// The provider's `claims_to_headers` lines for these claims; nil when a claim cannot
        /// be a header value, so such a token is refused again without being verified again.
        let headerBlock: [UInt8]?
        /// `exp` plus leeway (Unix seconds), nil without a numeric `exp`.
        let expiry: Int64?
        /// The last second this entry may answer.
        let answersUntil: Int64
        /// The verifier's key generation when it was verified; another generation re-verifies.
        let generation: Int

        init(token: UnsafeRawBufferPointer, claims: VerifiedClaims, headerBlock: [UInt8]?, expiry: Int64?,
             answersUntil: Int64, generation: Int) {
            self.token = Array(token)
            self.claims = claims
            self.headerBlock = headerBlock
            self.expiry = expiry
            self.answersUntil = answersUntil
            self.generation = generation
        }

        func holds(_ other: UnsafeRawBufferPointer) -> Bool { token.equals(other) }
    }

    static let maxAge: Int64 = 30
    static let slotCount = 4096
    static let probeLimit = 8
    private static let indexShift = UInt64(64 - slotCount.trailingZeroBitCount)

    /// Allocated by the first store: a provider whose routes see no traffic costs nothing.
    private var slots: [Entry?] = []
    /// Mixed into every slot index, so which tokens share a probe window differs per process.
    private let seed: UInt64

    /// `seed` is for tests that need tokens to share a window.
    init(seed: UInt64 = .random(in: .min ... .max)) {
        self.seed = seed
    }

    /// How many tokens are kept (for tests and sizing; not on the request path).
    var count: Int { slots.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    func lookup(_ token: UnsafeRawBufferPointer, now: Int64, generation: Int = 0) -> Entry? {
        guard !slots.isEmpty else { return nil }
        var index = home(token)
        for _ in 0..<Self.probeLimit {
            guard let entry = slots[index] else { return nil }
            if entry.holds(token) {
                return now <= entry.answersUntil && entry.generation == generation ? entry : nil
            }
            index = (index + 1) & (Self.slotCount - 1)
        }
        return nil
    }

    /// Keeps what a verification of `token` found, and returns it (also when it is not kept: a
    /// token whose `exp` has already passed with the leeway is never cached).
    @discardableResult
    func store(_ token: UnsafeRawBufferPointer, _ claims: VerifiedClaims, headerBlock: [UInt8]? = [],
               now: Int64, leeway: Int64, generation: Int = 0) -> Entry {
        let expiry = claims.expiry(leeway: leeway)
        let answersUntil = min(now + Self.maxAge, expiry ?? .max)
        let entry = Entry(token: token, claims: claims, headerBlock: headerBlock, expiry: expiry,
                          answersUntil: answersUntil, generation: generation)
        guard answersUntil > now else { return entry }
        if slots.isEmpty { slots = Array(repeating: nil, count: Self.slotCount) }
        let start = home(token)
        var index = start
        var victim = start
        for _ in 0..<Self.probeLimit {
            guard let held = slots[index], !held.holds(token) else {
                slots[index] = entry
                return entry
            }
            if held.answersUntil < slots[victim]!.answersUntil { victim = index }
            index = (index + 1) & (Self.slotCount - 1)
        }
        slots[victim] = entry
        return entry
    }

    /// A JWT ends in its signature, whose bytes an issuer's key makes unpredictable: its last
    /// eight (48 bits of base64url) and its length, mixed with the seed, place a token without
    /// hashing all of it. Tokens that share a window only compete for its slots: each entry is
    /// compared whole, so neither is taken for the other.
    @inline(__always)
    func home(_ token: UnsafeRawBufferPointer) -> Int {
        var last: UInt64 = 0
        if token.count >= 8 {
            last = token.loadUnaligned(fromByteOffset: token.count - 8, as: UInt64.self)
        } else {
            for byte in token { last = last << 8 | UInt64(byte) }
        }
        let key = (last ^ UInt64(token.count) << 56 ^ seed) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: key >> Self.indexShift)
    }
}
