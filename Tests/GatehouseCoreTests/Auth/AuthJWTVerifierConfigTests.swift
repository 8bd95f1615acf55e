import GatehouseConfig
import Testing
@testable import GatehouseCore

@Suite("JWTVerifier configuration and key reload")
struct AuthJWTVerifierConfigTests {
    typealias Support = AuthTestSupport

    // MARK: - Configuration errors

    static let missingFile = "/nonexistent/gatehouse/jwks.json"

    @Test(arguments: [
        ("no algorithms", Support.config(algorithms: []), ["auth.p.algorithms: at least one algorithm is required"]),
        ("alg none", Support.config(algorithms: ["none"]), ["auth.p.algorithms[0]: \"none\" is never accepted: tokens must be signed"]),
        ("alg None among others", Support.config(algorithms: ["HS256", "None"], secret: Support.secret),
         ["auth.p.algorithms[1]: \"None\" is never accepted: tokens must be signed"]),
        ("unknown alg", Support.config(algorithms: ["HS1"], secret: Support.secret),
         ["auth.p.algorithms[0]: unsupported algorithm \"HS1\" (expected one of HS256, HS384, HS512, RS256, RS384, RS512, PS256, ES256, ES384)"]),
        ("HS without secret", Support.config(algorithms: ["HS256", "HS512"]), ["auth.p.secret: required for HS256, HS512"]),
        ("short secret", Support.config(algorithms: ["HS256"], secret: "short"), ["auth.p.secret: must be at least 32 bytes for HS256"]),
        ("RS without jwks_file", Support.config(algorithms: ["RS256"]), ["auth.p.jwks_file: required for RS256"]),
        ("missing jwks_file", Support.config(algorithms: ["ES256"], jwksFile: missingFile),
         ["auth.p.jwks_file: cannot open \"\(missingFile)\": No such file or directory"]),
        ("everything at once", Support.config(algorithms: ["none", "HS256", "RS256"]),
         ["auth.p.algorithms[0]: \"none\" is never accepted: tokens must be signed",
          "auth.p.secret: required for HS256", "auth.p.jwks_file: required for RS256"]),
    ])
    func reportsConfigurationProblems(name: String, config: JWTProviderConfig, expected: [String]) {
        do {
            _ = try JWTVerifier(providerName: "p", config: config)
            Issue.record("\(name): accepted")
        } catch {
            #expect(error.issues.map(\.description) == expected, "\(name)")
        }
    }

    @Test(arguments: [
        ("not JSON", "{keys:[]}", "not valid JSON"),
        ("no keys array", #"{"kty":"RSA"}"#, "expected a JWK Set"),
        ("no key fits", AuthFixtures.jwksSmallRSAKey, "too small"),
        ("only EC keys for RS256", #"{"keys":[]}"#, "no key in"),
    ])
    func reportsUnusableJWKSFile(name: String, contents: String, fragment: String) throws {
        let path = try Support.temporaryFile(contents)
        defer { Support.remove(path) }
        do {
            _ = try JWTVerifier(providerName: "p", config: Support.config(algorithms: ["RS256"], jwksFile: path))
            Issue.record("\(name): accepted")
        } catch {
            #expect(error.issues.count == 1)
            #expect(error.issues.first?.path == "auth.p.jwks_file")
            #expect(error.issues.first?.message.contains(fragment) == true, "\(name): \(error)")
        }
    }

    @Test func skippedKeysAreReportedButNotFatal() throws {
        try Support.withFixtureVerifier(algorithms: ["RS256"], jwks: AuthFixtures.jwksWithSkippedKeys) { verifier in
            #expect(verifier.skippedKeys.count == 5)
            #expect(verifier.verify(token: AuthFixtures.rs256, now: AuthFixtures.now).isSuccess)
        }
    }

    @Test func duplicateAlgorithmsAreFolded() throws {
        let verifier = try JWTVerifier(providerName: "p", config: Support.config(algorithms: ["HS256", "HS256"], secret: Support.secret))
        #expect(verifier.algorithms == [.HS256])
    }

    // MARK: - Reload

    @Test func reloadsTheKeySetWhenTheFileChanges() throws {
        let path = try Support.temporaryFile(AuthFixtures.jwks)
        defer { Support.remove(path) }
        let verifier = try JWTVerifier(providerName: "p", config: Support.config(algorithms: ["RS256"], jwksFile: path))
        let now = AuthFixtures.now
        #expect(verifier.verify(token: AuthFixtures.rs256RotatedKey, now: now).failureReason == .unknownKey)

        try Support.replaceFile(at: path, with: AuthFixtures.jwksRotated)
        // Checked at most once per second: the same second still uses the old set.
        #expect(verifier.verify(token: AuthFixtures.rs256RotatedKey, now: now).failureReason == .unknownKey)
        #expect(verifier.verify(token: AuthFixtures.rs256RotatedKey, now: now + 1).isSuccess)
        #expect(verifier.verify(token: AuthFixtures.rs256, now: now + 1).isSuccess)

        // A broken file keeps the previous keys and says why.
        try Support.replaceFile(at: path, with: "{ not json")
        #expect(verifier.verify(token: AuthFixtures.rs256RotatedKey, now: now + 2).isSuccess)
        #expect(verifier.lastKeyReloadProblem?.contains("not valid JSON") == true)

        // A removed file too.
        Support.remove(path)
        #expect(verifier.verify(token: AuthFixtures.rs256RotatedKey, now: now + 3).isSuccess)

        // Back to the original set: the rotated key is gone again.
        try Support.replaceFile(at: path, with: AuthFixtures.jwks)
        #expect(verifier.verify(token: AuthFixtures.rs256RotatedKey, now: now + 4).failureReason == .unknownKey)
        #expect(verifier.lastKeyReloadProblem == nil)
    }
}
