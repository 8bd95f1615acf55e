import GatehouseConfig
import Testing
@testable import GatehouseCore

/// What a discovery document must say before its `jwks_uri` is used: the configured issuer as
/// its own, and https keys for an https issuer.
struct DiscoveryDocumentTests {
    static let documentURL = KeyURL(scheme: .https, host: "login.example.com", port: 443,
                                    target: "/.well-known/openid-configuration")

    static func read(_ json: String, issuer: String? = "https://login.example.com", from url: KeyURL = documentURL) -> String {
        switch KeyDocuments.jwksURI(fromDiscovery: FetchedDocument(status: 200, body: Array(json.utf8)), documentURL: url,
                                    issuer: issuer) {
        case .success(let keys): return keys.description
        case .failure(let problem): return "refused: \(problem.description)"
        }
    }

    @Test func theIssuersOwnDocumentGivesItsKeyURL() {
        #expect(Self.read(#"{"issuer":"https://login.example.com","jwks_uri":"https://login.example.com/keys"}"#)
                == "https://login.example.com/keys")
    }

    @Test func aDocumentForAnotherIssuerOrNoneIsRefused() {
        #expect(Self.read(#"{"issuer":"https://evil.example.com","jwks_uri":"https://evil.example.com/keys"}"#)
            .hasPrefix("refused: the discovery document's \"issuer\""))
        #expect(Self.read(#"{"jwks_uri":"https://login.example.com/keys"}"#).hasPrefix("refused:"))
        #expect(Self.read(#"{"issuer":"https://login.example.com/","jwks_uri":"https://login.example.com/keys"}"#)
            .hasPrefix("refused:"))
    }

    @Test func anHttpsIssuersKeysOverPlainHttpAreRefused() {
        #expect(Self.read(#"{"issuer":"https://login.example.com","jwks_uri":"http://login.example.com/keys"}"#)
            .hasPrefix("refused: jwks_uri: an https issuer's keys must come over https"))
        let plain = KeyURL(scheme: .http, host: "127.0.0.1", port: 8080, target: "/.well-known/openid-configuration")
        #expect(Self.read(#"{"issuer":"http://127.0.0.1:8080","jwks_uri":"http://127.0.0.1:8080/jwks"}"#,
                          issuer: "http://127.0.0.1:8080", from: plain) == "http://127.0.0.1:8080/jwks")
    }
}
