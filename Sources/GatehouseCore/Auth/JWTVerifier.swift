import GatehouseConfig

/// Verifies JWS compact tokens for one `type: jwt` provider (README, "How a request is handled"). Built once per config
/// snapshot and shared by every event loop; only its key store changes, when the JWK Set file does.
public final class JWTVerifier: Sendable {
    /// Bigger tokens are refused as malformed before any decoding.
    public static let maxTokenBytes = 8 * 1024
    /// HS* secrets shorter than this are refused at load time (RFC 7518 §3.2 wants at least the hash size).
    public static let minimumSecretBytes = 32

    public let providerName: String
    /// The accepted algorithms, from `algorithms`, duplicates removed.
    public let algorithms: [JWTAlgorithm]
    /// `claims_to_headers`, in file order.
    public let claimsToHeaders: [HeaderSetting]

    let secret: [UInt8]?
    let issuer: String?
    let audience: [String]
    let leewaySeconds: Int64
    let keyStore: JWKSStore?
    /// Keys fetched over http(s) (`jwks_url`, `discovery`, `type: firebase`).
    let remoteKeys: RemoteKeySource?
    /// Firebase ID token rules (`sub` non-empty, `auth_time` in the past).
    let firebaseRules: Bool
    /// Where tokens are looked for (`token_from`).
    let tokenSources: [TokenSource]

    // MARK: - Building from config

    /// Checks the provider's settings and loads its JWK Set; every problem is reported at once
    /// under `auth.<providerName>.…`.
    public init(providerName: String, config: JWTProviderConfig) throws(ConfigErrors) {
        let base = "auth.\(providerName)"
        var issues: [ConfigIssue] = []
        var algorithms: [JWTAlgorithm] = []
        if config.algorithms.isEmpty {
            issues.append(ConfigIssue(path: "\(base).algorithms", message: "at least one algorithm is required"))
        }
        for (index, name) in config.algorithms.enumerated() {
            guard let algorithm = JWTAlgorithm(rawValue: name) else {
                let expected = JWTAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
                let message = name.lowercased() == "none"
                    ? "\"\(name)\" is never accepted: tokens must be signed"
                    : "unsupported algorithm \"\(name)\" (expected one of \(expected))"
                issues.append(ConfigIssue(path: "\(base).algorithms[\(index)]", message: message))
                continue
            }
            if !algorithms.contains(algorithm) { algorithms.append(algorithm) }
        }

        let hmacAlgorithms = algorithms.filter { $0.family == .hmac }
        let keyAlgorithms = algorithms.filter { $0.family != .hmac }
        var secret: [UInt8]? = nil
        if !hmacAlgorithms.isEmpty {
            let names = hmacAlgorithms.map(\.rawValue).joined(separator: ", ")
            if let configured = config.secret {
                if configured.utf8.count < JWTVerifier.minimumSecretBytes {
                    issues.append(ConfigIssue(path: "\(base).secret",
                                              message: "must be at least \(JWTVerifier.minimumSecretBytes) bytes for \(names)"))
                }
                secret = Array(configured.utf8)
            } else {
                issues.append(ConfigIssue(path: "\(base).secret", message: "required for \(names)"))
            }
        }
        var keyStore: JWKSStore? = nil
        var remoteKeys: RemoteKeySource? = nil
        if let remote = config.remoteKeys, !keyAlgorithms.isEmpty {
            do {
                remoteKeys = try RemoteKeySources.process.source(providerName: providerName, config: remote,
                                                                 algorithms: algorithms)
            } catch {
                issues.append(ConfigIssue(path: "\(base).tls", message: error.message))
            }
        } else if !keyAlgorithms.isEmpty {
            let names = keyAlgorithms.map(\.rawValue).joined(separator: ", ")
            if let path = config.jwksFile {
                do {
                    let store = try JWKSStore(path: path, loadedAt: 0)
                    let keys = store.keys
                    if !keyAlgorithms.contains(where: keys.hasKey(fitting:)) {
                        issues.append(ConfigIssue(path: "\(base).jwks_file",
                                                  message: "no key in \"\(path)\" fits \(names)"))
                    }
                    keyStore = store
                } catch {
                    issues += error.problems.map { ConfigIssue(path: "\(base).jwks_file", message: $0) }
                }
            } else {
                issues.append(ConfigIssue(path: "\(base).jwks_file", message: "required for \(names)"))
            }
        }
        guard issues.isEmpty else { throw ConfigErrors(issues) }

        self.providerName = providerName
        self.algorithms = algorithms
        self.claimsToHeaders = config.claimsToHeaders
        self.secret = secret
        self.issuer = config.issuer
        self.audience = config.audience
        self.leewaySeconds = max(0, config.leeway.components.seconds)
        self.keyStore = keyStore
        self.remoteKeys = remoteKeys
        self.firebaseRules = config.firebaseRules
        self.tokenSources = config.tokenSources
    }

    // MARK: - Diagnostics

    /// Identifies the key set verifications were made with at `now` (unix seconds): cached
    /// results from another generation are verified again (a rotation or a rewritten
    /// `jwks_file` that drops a key takes effect at once).
    @inline(__always)
    func keyGeneration(now: Int64) -> Int {
        if let remoteKeys { return remoteKeys.generation }
        return keyStore?.generation(now: now) ?? 0
    }

    /// Keys of the current JWK Set that were skipped (other key types, curves or uses), for logs.
    public var skippedKeys: [String] {
        keyStore?.keys.skippedKeys ?? remoteKeys?.keys?.skippedKeys ?? []
    }

    /// Why the last re-read of the JWK Set file failed (the previous keys stay in use), if it did.
    public var lastKeyReloadProblem: String? {
        keyStore?.lastProblem
    }
}
