import Testing
@testable import GatehouseConfig

/// `auth:` and `operations:` refusals, each with the exact lines `gatehouse check` prints.
@Suite struct BadAuthConfigTests {
    static let jwks = ConfigTestSupport.jwksPath
    static let secret = ConfigTestSupport.secret32

    static let cases: [BadConfigCase] = [
        BadConfigCase("type missing", ConfigTestSupport.withAuth("{a: {keys: [k]}}"),
                      "auth.a.type: required (jwt or api_key)"),
        BadConfigCase("unknown type", ConfigTestSupport.withAuth("{a: {type: oauth}}"),
                      "auth.a.type: unknown type \"oauth\" (expected jwt or api_key)"),
        BadConfigCase("algorithms missing", ConfigTestSupport.withAuth("{j: {type: jwt, secret: \(secret)}}"),
                      "auth.j.algorithms: required; list the accepted algorithms, e.g. [RS256]"),
        BadConfigCase("algorithms empty", ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [], secret: \(secret)}}"),
                      "auth.j.algorithms: must list at least one algorithm"),
        BadConfigCase("alg none in any spelling", ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [HS256, None], secret: \(secret)}}"),
                      "auth.j.algorithms[1]: \"none\" (unsigned tokens) is never accepted"),
        BadConfigCase("unknown algorithm", ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [RS257], jwks_file: \"\(jwks)\"}}"),
                      "auth.j.algorithms[0]: unknown algorithm \"RS257\" (expected one of HS256, HS384, HS512, RS256, RS384, RS512, PS256, ES256, ES384)"),
        BadConfigCase("lowercase algorithm", ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [rs256], jwks_file: \"\(jwks)\"}}"),
                      "auth.j.algorithms[0]: unknown algorithm \"rs256\" (expected one of HS256, HS384, HS512, RS256, RS384, RS512, PS256, ES256, ES384)"),
        BadConfigCase("secret and jwks_file",
                      ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [RS256], jwks_file: \"\(jwks)\", secret: \(secret)}}"),
                      "auth.j.secret: give either jwks_file or secret, not both"),
        BadConfigCase("neither secret nor jwks_file", ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [RS256]}}"),
                      "auth.j: one of jwks_file or secret is required"),
        BadConfigCase("short secret", ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [HS256], secret: too-short}}"),
                      "auth.j.secret: must be at least 32 bytes"),
        BadConfigCase("HS algorithm with jwks_file", ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [HS256], jwks_file: \"\(jwks)\"}}"),
                      "auth.j.algorithms[0]: HS256 verifies with a secret, not jwks_file keys"),
        BadConfigCase("RS algorithm with secret", ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [HS256, ES256], secret: \(secret)}}"),
                      "auth.j.algorithms[1]: ES256 verifies with jwks_file keys, not a secret"),
        BadConfigCase("missing jwks_file", ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [RS256], jwks_file: /nonexistent/jwks.json}}"),
                      "auth.j.jwks_file: cannot read \"/nonexistent/jwks.json\": No such file or directory"),
        BadConfigCase("jwks_file not a JWK Set",
                      ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [RS256], jwks_file: \"\(ConfigTestSupport.plainFilePath)\"}}"),
                      "auth.j.jwks_file: \"\(ConfigTestSupport.plainFilePath)\" is not a JWK Set (a JSON object with a non-empty \"keys\" list)"),
        BadConfigCase("empty audience", ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [HS256], secret: \(secret), audience: [\"\"]}}"),
                      "auth.j.audience[0]: must not be empty"),
        BadConfigCase("empty claim name",
                      ConfigTestSupport.withAuth("{j: {type: jwt, algorithms: [HS256], secret: \(secret), claims_to_headers: {X-User: \"\"}}}"),
                      "auth.j.claims_to_headers.X-User: must not be empty"),
        BadConfigCase("api_key keys missing", ConfigTestSupport.withAuth("{k: {type: api_key}}"),
                      "auth.k.keys: required; list the accepted keys"),
        BadConfigCase("api_key keys empty", ConfigTestSupport.withAuth("{k: {type: api_key, keys: []}}"),
                      "auth.k.keys: must list at least one key"),
        BadConfigCase("api_key empty key", ConfigTestSupport.withAuth("{k: {type: api_key, keys: [a, \"\"]}}"),
                      "auth.k.keys[1]: must not be empty"),
        BadConfigCase("api_key key from an unset variable", ConfigTestSupport.withAuth("{k: {type: api_key, keys: [\"${IOS_KEY}\"]}}"),
                      "auth.k.keys[0]: environment variable IOS_KEY is not set"),
        BadConfigCase("api_key invalid header", ConfigTestSupport.withAuth("{k: {type: api_key, header: X Key, keys: [a]}}"),
                      "auth.k.header: \"X Key\" is not a valid header name"),
        BadConfigCase("jwt key on api_key", ConfigTestSupport.withAuth("{k: {type: api_key, keys: [a], algorithms: [HS256]}}"),
                      "auth.k.algorithms: unknown key"),
        BadConfigCase("provider named none", ConfigTestSupport.withAuth("{none: {type: api_key, keys: [a]}}"),
                      "auth.none: \"none\" means a public route; give the provider another name"),
        BadConfigCase("operations without dir", "operations: {}\n" + ConfigTestSupport.minimalYAML,
                      "operations.dir: required; the directory holding *.graphql files"),
        BadConfigCase("operations dir missing", "operations: {dir: /nonexistent/ops}\n" + ConfigTestSupport.minimalYAML,
                      "operations.dir: cannot read \"/nonexistent/ops\": No such file or directory"),
        BadConfigCase("operations dir is a file", "operations: {dir: \"\(ConfigTestSupport.plainFilePath)\"}\n" + ConfigTestSupport.minimalYAML,
                      "operations.dir: \"\(ConfigTestSupport.plainFilePath)\" is not a directory"),
    ]

    @Test(arguments: cases)
    func refused(_ badCase: BadConfigCase) {
        #expect(ConfigTestSupport.issueLines(badCase.yaml, environment: badCase.environment) == badCase.expected)
    }
}
