import Foundation
import Testing
@testable import GatehouseConfig

/// Shared fixtures: small configurations built around one section under test, and helpers that
/// return either the config or the `path: message` lines `gatehouse check` would print.
enum ConfigTestSupport {
    static let appURL = "http://127.0.0.1:4000/graphql"

    static let minimalYAML = """
        upstreams:
          app:
            url: \(appURL)
        routes:
          - path: /graphql
            upstream: app
            auth: none
        """

    // MARK: - Configurations around one section

    static func withServer(_ server: String) -> String {
        """
        server: \(server)
        upstreams: {app: {url: "\(appURL)"}}
        routes: [{path: /graphql, upstream: app, auth: none}]
        """
    }

    static func withUpstream(_ upstream: String) -> String {
        """
        upstreams: {app: \(upstream)}
        routes: [{path: /graphql, upstream: app, auth: none}]
        """
    }

    /// `auth:` as given, and one public route.
    static func withAuth(_ auth: String) -> String {
        """
        upstreams: {app: {url: "\(appURL)"}}
        auth: \(auth)
        routes: [{path: /graphql, upstream: app, auth: none}]
        """
    }

    /// `routes:` as given, with upstream `app` and api-key provider `user-keys` defined.
    static func withRoutes(_ routes: String) -> String {
        """
        upstreams: {app: {url: "\(appURL)"}}
        auth: {user-keys: {type: api_key, keys: [k1]}}
        routes: \(routes)
        """
    }

    // MARK: - Files

    /// The repository root, found from this file's path.
    static let repositoryRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static let jwksPath = repositoryRoot + "/config/jwks.json"

    /// A readable file that is neither a JWK Set nor a directory.
    static let plainFilePath = #filePath

    static let directoryPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path

    static let secret32 = String(repeating: "s", count: 32)

    // MARK: - Loading

    static func load(_ yaml: String, environment: [String: String] = [:],
                     baseDirectory: String? = nil) -> Result<GatewayConfig, ConfigErrors> {
        ConfigLoader.load(yaml: yaml, environment: environment, sourcePath: nil,
                          files: FileChecks(baseDirectory: baseDirectory))
    }

    /// The issue lines for a config that must fail; empty when it loaded.
    static func issueLines(_ yaml: String, environment: [String: String] = [:]) -> [String] {
        switch load(yaml, environment: environment) {
        case .success: return []
        case .failure(let errors): return errors.issues.map(\.description)
        }
    }

    /// The config for text that must load; nil (recording the issues) when it did not.
    static func config(_ yaml: String, environment: [String: String] = [:],
                       sourceLocation: SourceLocation = #_sourceLocation) -> GatewayConfig? {
        switch load(yaml, environment: environment) {
        case .success(let config): return config
        case .failure(let errors):
            Issue.record("config did not load:\n\(errors)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

/// One configuration that must be refused, with the exact lines `gatehouse check` prints.
struct BadConfigCase: Sendable, CustomTestStringConvertible {
    var name: String
    var yaml: String
    var environment: [String: String] = [:]
    var expected: [String]

    init(_ name: String, _ yaml: String, environment: [String: String] = [:], _ expected: String...) {
        self.name = name
        self.yaml = yaml
        self.environment = environment
        self.expected = expected
    }

    var testDescription: String { name }
}
