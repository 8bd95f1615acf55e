import Foundation
import GatehouseConfig
@testable import GatehouseCore

/// Helpers shared by the auth tests: temporary key files, verifiers and hand-made tokens.
enum AuthTestSupport {
    static let secret = "gatehouse-test-secret-0123456789abcdef"

    // MARK: - Files

    /// A new file under the temporary directory holding `contents`; the caller removes it.
    static func temporaryFile(_ contents: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("gatehouse-auth-\(UUID().uuidString).json").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Replaces `path` atomically (write aside, then rename), as a key rotation job would.
    static func replaceFile(at path: String, with contents: String) throws {
        let aside = path + ".new"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: aside))
        guard rename(aside, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    // MARK: - Verifiers

    static func config(algorithms: [String], jwksFile: String? = nil, secret: String? = nil,
                       issuer: String? = nil, audience: [String] = [], leeway: Duration = .zero) -> JWTProviderConfig {
        var config = JWTProviderConfig()
        config.algorithms = algorithms
        config.jwksFile = jwksFile
        config.secret = secret
        config.issuer = issuer
        config.audience = audience
        config.leeway = leeway
        return config
    }

    /// A verifier over the fixture JWK Set (plus the HS secret when an HS algorithm is listed).
    static func withFixtureVerifier<T>(algorithms: [String] = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384"],
                                       jwks: String = AuthFixtures.jwks, issuer: String? = AuthFixtures.issuer,
                                       audience: [String] = [AuthFixtures.audience],
                                       _ body: (JWTVerifier) throws -> T) throws -> T {
        let path = try temporaryFile(jwks)
        defer { remove(path) }
        let usesSecret = algorithms.contains { $0.hasPrefix("HS") }
        let verifier = try JWTVerifier(providerName: "user-jwt",
                                       config: config(algorithms: algorithms, jwksFile: path,
                                                      secret: usesSecret ? secret : nil,
                                                      issuer: issuer, audience: audience))
        return try body(verifier)
    }

    static func hmacVerifier(leeway: Duration = .seconds(30)) throws -> JWTVerifier {
        try JWTVerifier(providerName: "hs", config: config(algorithms: ["HS256"], secret: secret,
                                                           issuer: AuthFixtures.issuer,
                                                           audience: [AuthFixtures.audience], leeway: leeway))
    }

    // MARK: - Tokens

    static func base64URL(_ text: String) -> String {
        String(decoding: Base64URL.encode(Array(text.utf8)), as: UTF8.self)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        String(decoding: Base64URL.encode(bytes), as: UTF8.self)
    }

    /// A token with exactly this header and payload text and any signature bytes.
    static func forge(header: String, payload: String, signature: [UInt8] = []) -> String {
        base64URL(header) + "." + base64URL(payload) + "." + base64URL(signature)
    }

    /// A token with exactly this header and payload text, correctly signed with HS256 and `secret`.
    static func hs256(header: String = #"{"alg":"HS256","typ":"JWT"}"#, payload: String,
                      secret: String = AuthTestSupport.secret) -> String {
        let signingInput = base64URL(header) + "." + base64URL(payload)
        let mac = JOSESignature.hmac(.HS256, key: Array(secret.utf8), data: Array(signingInput.utf8))
        return signingInput + "." + base64URL(mac)
    }

    /// Claims valid at `AuthFixtures.now`, with `changes` applied (nil removes a claim).
    static func payload(_ changes: [String: String?] = [:]) -> String {
        var members: [(String, String)] = [
            ("sub", #""alice""#), ("iss", "\"\(AuthFixtures.issuer)\""), ("aud", "\"\(AuthFixtures.audience)\""),
            ("exp", "\(AuthFixtures.now + 600)"), ("nbf", "\(AuthFixtures.now - 600)"),
        ]
        for (key, value) in changes.sorted(by: { $0.key < $1.key }) {
            if let index = members.firstIndex(where: { $0.0 == key }) {
                if let value { members[index].1 = value } else { members.remove(at: index) }
            } else if let value {
                members.append((key, value))
            }
        }
        return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
}

extension Result {
    var failureReason: AuthFailureReason? {
        if case .failure(let failure as AuthFailure) = self { return failure.reason }
        return nil
    }

    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
