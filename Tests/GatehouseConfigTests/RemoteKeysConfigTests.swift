import Testing
@testable import GatehouseConfig

/// Remote keys (`jwks_url`, `discovery`), the Firebase preset and `token_from`, as decoded.
@Suite struct RemoteKeysConfigTests {
    static func jwt(_ auth: String) -> JWTProviderConfig? {
        guard let config = ConfigTestSupport.config(ConfigTestSupport.withAuth(auth)),
              case .jwt(let jwt)? = config.auth.first?.kind else { return nil }
        return jwt
    }

    @Test func jwksURLWithRefreshAndTLS() throws {
        let jwt = try #require(Self.jwt("""
            {corp: {type: jwt, algorithms: [RS256], jwks_url: "https://login.example.com:8443/keys?v=2",
                    refresh: {min: 30s, max: 2h}, tls: {ca_file: "\(ConfigTestSupport.plainFilePath)"}}}
            """))
        let keys = try #require(jwt.remoteKeys)
        #expect(keys.location == .url(KeyURL(scheme: .https, host: "login.example.com", port: 8443, target: "/keys?v=2")))
        #expect(keys.minRefresh == .seconds(30) && keys.maxRefresh == .seconds(7200))
        #expect(keys.caFile == ConfigTestSupport.plainFilePath)
        #expect(jwt.tokenSources == [.header])
    }

    /// What logs and `/status` show of a key url: never its query, where an access key may be.
    @Test(arguments: [
        ("https://login.example.com/keys?access_key=s3cret", "https://login.example.com/keys?…"),
        ("http://127.0.0.1:9000/jwks?a=1&b=2", "http://127.0.0.1:9000/jwks?…"),
        ("https://login.example.com:8443/keys", "https://login.example.com:8443/keys"),
        ("http://[::1]:80/keys", "http://[::1]/keys"),
    ])
    func shownWithoutItsQuery(_ text: String, _ shown: String) throws {
        let url = try KeyURL.parse(text).get()
        #expect(url.description == shown)
        // The request line still sends the whole query.
        #expect(text.hasSuffix(url.target))
    }

    @Test func discoveryUsesTheIssuersWellKnownDocument() throws {
        let jwt = try #require(Self.jwt("{corp: {type: jwt, algorithms: [ES256], issuer: \"https://login.example.com/\", discovery: true}}"))
        let keys = try #require(jwt.remoteKeys)
        #expect(keys.location == .discovery(KeyURL(scheme: .https, host: "login.example.com", port: 443,
                                                    target: "/.well-known/openid-configuration")))
        #expect(keys.minRefresh == .seconds(60) && keys.maxRefresh == .seconds(86_400))
    }

    @Test func firebasePreset() throws {
        let jwt = try #require(Self.jwt("{firebase: {type: firebase, project_id: my-project}}"))
        #expect(jwt.algorithms == ["RS256"])
        #expect(jwt.issuer == "https://securetoken.google.com/my-project")
        #expect(jwt.audience == ["my-project"])
        #expect(jwt.firebaseRules)
        #expect(jwt.remoteKeys?.location == .url(try KeyURL.parse(FirebasePreset.jwksURL).get()))
    }

    @Test func firebasePresetOverrides() throws {
        let jwt = try #require(Self.jwt("""
            {firebase: {type: firebase, project_id: p, jwks_url: "http://127.0.0.1:9000/jwks", issuer: "https://local.test/p",
                        token_from: [cookie:__session]}}
            """))
        #expect(jwt.remoteKeys?.location == .url(KeyURL(scheme: .http, host: "127.0.0.1", port: 9000, target: "/jwks")))
        #expect(jwt.issuer == "https://local.test/p")
        #expect(jwt.tokenSources == [.cookie("__session")])
    }

    @Test func tokenSourcesInOrder() throws {
        let jwt = try #require(Self.jwt("""
            {j: {type: jwt, algorithms: [HS256], secret: \(ConfigTestSupport.secret32),
                 token_from: [query:access_token, header, cookie:session]}}
            """))
        #expect(jwt.tokenSources == [.query("access_token"), .header, .cookie("session")])
    }
}
