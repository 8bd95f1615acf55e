import COpenSSL
import GatehouseConfig

/// Checks a presented API key (`type: api_key`) against every configured key in constant time.
/// Keys are compared as SHA-256 digests, so every comparison runs over 32 equal-length bytes and
/// neither a key's content nor its length shows in the timing; all keys are always compared.
public final class APIKeyAuthenticator: Sendable {
    public let providerName: String
    /// The request header carrying the key, as configured (e.g. `X-Api-Key`).
    public let headerName: String
    /// `headerName` in lowercase ASCII, for matching header names without allocating.
    public let lowercasedHeaderName: [UInt8]

    /// SHA-256 of each configured key. Empty keys are left out: they can never match.
    private let keyDigests: [[UInt8]]

    public init(providerName: String, config: APIKeyProviderConfig) {
        self.providerName = providerName
        self.headerName = config.header
        self.lowercasedHeaderName = config.header.utf8.map { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
        }
        self.keyDigests = config.keys.filter { !$0.isEmpty }.compactMap { key in
            Array(key.utf8).withUnsafeBytes { APIKeyAuthenticator.sha256($0) }
        }
    }

    /// True when `presented` equals one of the configured keys.
    public func verify(_ presented: UnsafeRawBufferPointer) -> Bool {
        guard !presented.isEmpty, let digest = APIKeyAuthenticator.sha256(presented) else { return false }
        var matches = 0
        digest.withUnsafeBytes { presentedDigest in
            for keyDigest in keyDigests {
                let differs = keyDigest.withUnsafeBytes { configured in
                    CRYPTO_memcmp(configured.baseAddress, presentedDigest.baseAddress, configured.count)
                }
                // No early exit: the time taken does not depend on which key matched, if any.
                matches |= Int(differs == 0 ? 1 : 0)
            }
        }
        return matches != 0
    }

    public func verify(_ presented: [UInt8]) -> Bool {
        presented.withUnsafeBytes { verify($0) }
    }

    /// nil only if libcrypto cannot hash; a key is then refused rather than compared as zeros.
    static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: SHA256Digest.length)
        guard digest.withUnsafeMutableBufferPointer({ SHA256Digest.digest(bytes, into: $0.baseAddress!) }) else {
            ERR_clear_error()
            return nil
        }
        return digest
    }
}
