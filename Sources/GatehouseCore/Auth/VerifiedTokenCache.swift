import Glibc

/// Tokens one worker has verified recently, so a client sending the same token on every request
/// pays for signature verification once (an RS256 check costs tens of microseconds). Entries
/// live at most `maxAge` seconds and never past the token's own `exp` (plus leeway): expiry,
/// `nbf` and key rotation are re-checked by a full verification soon after they matter.
/// Per worker, so no locks; per verifier, so a reload starts empty.
final class VerifiedTokenCache {
    private struct Entry {
        let token: [UInt8]
        let claims: VerifiedClaims
        let validUntil: Int64
        /// The verifier's key generation when it was verified; another generation re-verifies.
        let generation: Int
    }

    static let maxAge: Int64 = 30
    static let capacity = 4096

    private var entries: [Int: Entry] = [:]

    func lookup(_ token: UnsafeRawBufferPointer, now: Int64, generation: Int = 0) -> VerifiedClaims? {
        guard !entries.isEmpty else { return nil }
        let key = Self.key(token)
        guard let entry = entries[key] else { return nil }
        guard entry.token.count == token.count,
              entry.token.withUnsafeBytes({ memcmp($0.baseAddress!, token.baseAddress!, token.count) == 0 }) else {
            return nil
        }
        if now > entry.validUntil || entry.generation != generation {
            entries.removeValue(forKey: key)
            return nil
        }
        return entry.claims
    }

    func store(_ token: UnsafeRawBufferPointer, _ claims: VerifiedClaims, now: Int64, leeway: Int64, generation: Int = 0) {
        var validUntil = now + Self.maxAge
        if let expiry = claims.expiry(leeway: leeway) { validUntil = min(validUntil, expiry) }
        guard validUntil > now else { return }
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[Self.key(token)] = Entry(token: Array(token), claims: claims, validUntil: validUntil, generation: generation)
    }

    /// A JWT ends in its signature, whose bytes an issuer's key makes unpredictable: its last
    /// eight (48 bits of base64url) and its length tell tokens apart without hashing the token,
    /// and the dictionary hashes this key with its own seed. Two tokens that share a key only
    /// share a slot: the stored token is compared whole, so the other is verified again.
    private static func key(_ token: UnsafeRawBufferPointer) -> Int {
        var last: UInt64 = 0
        if token.count >= 8 {
            last = token.loadUnaligned(fromByteOffset: token.count - 8, as: UInt64.self)
        } else {
            for byte in token { last = last << 8 | UInt64(byte) }
        }
        return Int(bitPattern: UInt(last ^ UInt64(token.count) << 56))
    }
}
