import GatehouseConfig
import GatehouseGraphQL
import Testing
@testable import GatehouseCore

// MARK: - Fixtures

private let listMoviesText = """
    query listMoviesByGenre($genre: Genre!, $limit: Int = 10) { movies(genre: $genre, limit: $limit) { title } }
    """
private let createTokenText = "mutation createUserToken($email: String!) { createUserToken(email: $email) }"
private let appSettingText = "query appSetting { appSetting { cdnUrl } }"

private let registry: OperationRegistry = {
    let sources = [
        (path: "movies.graphql", text: listMoviesText),
        (path: "login.graphql", text: createTokenText),
        (path: "settings.graphql", text: appSettingText),
    ]
    guard case .success(let registry) = OperationRegistry.load(sources: sources) else { return .empty }
    return registry
}()

private let listMoviesHash = PersistedQueryHash.sha256Hex(listMoviesText)
private let unknownHash = String(repeating: "0", count: 64)
private let freeFormText = "query freeForm { movies { title } }"
private let freeFormHash = PersistedQueryHash.sha256Hex(freeFormText)
/// The stored listMoviesByGenre as a client may write it: other white space, commas, a comment.
private let listMoviesReformatted = #"# mine\nquery listMoviesByGenre($genre: Genre!, $limit: Int = 10),{\n  "#
    + "movies(genre: $genre, limit: $limit){ title, } }"
private let notStored = "403 OPERATION_NOT_ALLOWED: Operation \"listMoviesByGenre\" is allowed on this route only as the "
    + "gateway's stored document; send its operationName without query text"

private let off = OperationPolicy(persisted: .off)
private let allow = OperationPolicy(persisted: .allow)
private let only = OperationPolicy(persisted: .only)
private let allowListed = OperationPolicy(persisted: .allow, allowList: ["listMoviesByGenre", "createUserToken", "freeForm"])
private let onlyListed = OperationPolicy(persisted: .only, allowList: ["listMoviesByGenre"])
private let offListed = OperationPolicy(persisted: .off, allowList: ["listMoviesByGenre", "freeForm"])
private let aemPassThroughRefused =
    "403 OPERATION_NOT_ALLOWED: Only graphql/execute.json/wknd-shared/<name> of a listed operation passes through on this route"
private let aem = OperationPolicy(persisted: .allow, upstreamKind: .aem, aemConfig: "wknd-shared")
private let aemOnly = OperationPolicy(persisted: .only, allowList: ["adventures-all", "by-slug"],
                                      upstreamKind: .aem, aemConfig: "wknd-shared")

/// A decision as one line: `forward`, `POST <name> <variables>`, `AEM <path>` or `<status-ish kind>: <message>`.
private func describe(_ decision: OperationDecision) -> String {
    switch decision {
    case .forwardUnchanged:
        return "forward"
    case .forwardBody(let body):
        guard let object = try? JSONReader.parse(body).objectValue,
              let name = object["operationName"]?.stringValue,
              let query = object["query"]?.stringValue,
              let variables = object["variables"] else { return "invalid body" }
        let stored = registry.operation(named: name)?.text
        return "POST \(name) \(variables.serializedString)" + (query == stored ? "" : " (not the stored text)")
    case .aemGet(let path):
        return "AEM " + String(decoding: path, as: UTF8.self)
    case .refuse(let error):
        let kind: String
        switch error.kind {
        case .badRequest: kind = "400"
        case .notFound: kind = "404"
        case .operationNotAllowed: kind = "403 OPERATION_NOT_ALLOWED"
        case .methodNotAllowed(let allow): kind = "405 allow \(allow.joined(separator: ","))"
        case .persistedQueryNotFound: kind = "PERSISTED_QUERY_NOT_FOUND"
        default: kind = "\(error.kind)"
        }
        return "\(kind): \(error.message)"
    }
}

struct DecisionCase: Sendable, CustomTestStringConvertible {
    var label: String
    var policy: OperationPolicy
    var method: OperationPolicy.RequestMethod = .post
    var path: String? = nil
    var query: String? = nil
    var body: String? = nil
    var expected: String
    var testDescription: String { label }
}

private func apq(_ hash: String) -> String {
    #""extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}"#
}

private func apqQuery(_ hash: String) -> String {
    "extensions=" + "{\"persistedQuery\":{\"version\":1,\"sha256Hash\":\"\(hash)\"}}"
        .replacingPercentEncodable()
}

extension String {
    /// Percent-encodes everything but letters and digits, for building test query strings.
    fileprivate func replacingPercentEncodable() -> String {
        var output = ""
        for byte in utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) {
                output.append(Character(Unicode.Scalar(byte)))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return output
    }
}

// MARK: - Decisions

let decisionCases: [DecisionCase] = [
    // persisted: off
    .init(label: "off forwards anything", policy: off, body: "not json", expected: "forward"),
    .init(label: "off ignores names", policy: off, body: #"{"operationName":"listMoviesByGenre"}"#, expected: "forward"),
    .init(label: "off with a list: the stored text", policy: offListed,
          body: #"{"query":"\#(listMoviesReformatted)"}"#, expected: "forward"),
    .init(label: "off with a list: other text under a listed name", policy: offListed,
          body: #"{"query":"query listMoviesByGenre { createMovie { key } }"}"#, expected: notStored),
    .init(label: "off with a list: a listed name the gateway holds no text of", policy: offListed,
          body: #"{"query":"\#(freeFormText)"}"#,
          expected: "403 OPERATION_NOT_ALLOWED: Operation \"freeForm\" is allowed on this route only as the gateway's "
              + "stored document; send its operationName without query text"),
    .init(label: "off with a list: unlisted free-form", policy: offListed, body: #"{"query":"{ a }"}"#,
          expected: "403 OPERATION_NOT_ALLOWED: Anonymous operations are not allowed on this route"),
    .init(label: "off with a list: unlisted name", policy: offListed, body: #"{"operationName":"other"}"#,
          expected: "403 OPERATION_NOT_ALLOWED: Operation \"other\" is not allowed on this route"),

    // persisted: allow
    .init(label: "allow forwards free-form", policy: allow, body: #"{"query":"{ a }"}"#, expected: "forward"),
    .init(label: "allow forwards unreadable bodies", policy: allow, body: "[1,2]", expected: "forward"),
    .init(label: "allow resolves names", policy: allow,
          body: #"{"operationName":"listMoviesByGenre","variables":{"genre":"DRAMA"}}"#,
          expected: #"POST listMoviesByGenre {"genre":"DRAMA"}"#),
    .init(label: "allow passes unknown names on", policy: allow, body: #"{"operationName":"upstreamOwn"}"#, expected: "forward"),
    .init(label: "allow resolves a known hash", policy: allow, body: "{\(apq(listMoviesHash)),\"variables\":{\"genre\":\"A\"}}",
          expected: #"POST listMoviesByGenre {"genre":"A"}"#),
    .init(label: "allow: unknown hash", policy: allow, body: "{\(apq(unknownHash))}",
          expected: "PERSISTED_QUERY_NOT_FOUND: PersistedQueryNotFound"),
    .init(label: "allow: APQ registration is forwarded", policy: allow,
          body: "{\"query\":\"\(freeFormText)\",\(apq(freeFormHash))}", expected: "forward"),
    .init(label: "allow: hash must match the text", policy: allow,
          body: "{\"query\":\"\(freeFormText)\",\(apq(unknownHash))}", expected: "400: provided sha does not match query"),
    .init(label: "allow: text with a known hash uses the stored text", policy: allow,
          body: "{\"query\":\(JSONValue.string(listMoviesText).serializedString),\(apq(listMoviesHash.uppercased()))}",
          expected: "POST listMoviesByGenre {}"),
    .init(label: "allow: GET APQ", policy: allow, method: .get,
          query: apqQuery(listMoviesHash) + "&variables=%7B%22genre%22%3A%22A%22%7D",
          expected: #"POST listMoviesByGenre {"genre":"A"}"#),
    .init(label: "allow: GET APQ miss", policy: allow, method: .get, query: apqQuery(unknownHash),
          expected: "PERSISTED_QUERY_NOT_FOUND: PersistedQueryNotFound"),
    .init(label: "allow: GET names nothing", policy: allow, method: .get, query: "", expected: "forward"),
    .init(label: "allow: a path that names no operation is an upstream path", policy: allow, method: .get,
          path: "some/path", query: "query=%7Ba%7D", expected: "forward"),
    .init(label: "allow: a path that names an operation", policy: allow, method: .get, path: "listMoviesByGenre",
          query: "genre=A", expected: #"POST listMoviesByGenre {"genre":"A"}"#),
    .init(label: "allow: other methods pass", policy: allow, method: .other, expected: "forward"),

    // allow with an operations list
    .init(label: "list: the stored text", policy: allowListed, body: #"{"query":"\#(listMoviesReformatted)"}"#,
          expected: "forward"),
    .init(label: "list: other text under a listed name", policy: allowListed,
          body: #"{"query":"mutation listMoviesByGenre { createMovie(title: \"x\") { key } }"}"#, expected: notStored),
    .init(label: "list: the stored text with a field more", policy: allowListed,
          body: #"{"query":"query listMoviesByGenre($genre: Genre!, $limit: Int = 10) { movies(genre: $genre, limit: $limit) { title year } }"}"#,
          expected: notStored),
    .init(label: "list: the stored text beside another operation", policy: allowListed,
          body: #"{"query":"\#(listMoviesText) query freeForm { y }","operationName":"listMoviesByGenre"}"#,
          expected: notStored),
    .init(label: "list: unlisted free-form", policy: allowListed,
          body: #"{"query":"query a { x } query freeForm { y }","operationName":"a"}"#,
          expected: "403 OPERATION_NOT_ALLOWED: Operation \"a\" is not allowed on this route"),
    .init(label: "list: ambiguous document", policy: allowListed, body: #"{"query":"query a { x } query b { y }"}"#,
          expected: "400: Must provide operation name if query contains multiple operations"),
    .init(label: "list: syntax error", policy: allowListed, body: #"{"query":"query freeForm { x"}"#,
          expected: "400: GraphQL syntax error at 1:19: Expected Name, found <EOF>"),
    .init(label: "list: unlisted name", policy: allowListed, body: #"{"operationName":"appSetting"}"#,
          expected: "403 OPERATION_NOT_ALLOWED: Operation \"appSetting\" is not allowed on this route"),
    .init(label: "list: unlisted hash", policy: allowListed,
          body: "{\(apq(PersistedQueryHash.sha256Hex(appSettingText)))}",
          expected: "403 OPERATION_NOT_ALLOWED: Operation \"appSetting\" is not allowed on this route"),
    .init(label: "list: free-form mutation over GET", policy: allowListed, method: .get,
          query: "query=" + createTokenText.replacingPercentEncodable(),
          expected: "405 allow POST: Mutations cannot be sent with GET; use POST"),
    .init(label: "list: unreadable body", policy: allowListed, body: "nope", expected: "400: Request body is not valid JSON"),
    .init(label: "list: empty body", policy: allowListed, body: "", expected: "400: Request body is required"),
    .init(label: "list: other methods", policy: allowListed, method: .other,
          expected: "405 allow GET,POST: GraphQL requests use GET or POST"),

    // persisted: only
    .init(label: "only refuses free-form", policy: only, body: #"{"query":"{ a }"}"#,
          expected: "403 OPERATION_NOT_ALLOWED: Only persisted operations are allowed on this route"),
    .init(label: "only refuses free-form over GET", policy: only, method: .get, query: "query=%7Ba%7D",
          expected: "403 OPERATION_NOT_ALLOWED: Only persisted operations are allowed on this route"),
    .init(label: "only refuses APQ registration", policy: only, body: "{\"query\":\"\(freeFormText)\",\(apq(freeFormHash))}",
          expected: "403 OPERATION_NOT_ALLOWED: Only persisted operations are allowed on this route"),
    .init(label: "only resolves names", policy: only, body: #"{"operationName":"createUserToken","variables":{"email":"a@b"}}"#,
          expected: #"POST createUserToken {"email":"a@b"}"#),
    .init(label: "only: names without variables", policy: only, body: #"{"operationName":"appSetting"}"#,
          expected: "POST appSetting {}"),
    .init(label: "only: unknown name", policy: only, body: #"{"operationName":"nope"}"#, expected: "400: Unknown operation \"nope\""),
    .init(label: "only: names nothing", policy: only, body: #"{"variables":{}}"#, expected: "400: The request names no operation"),
    .init(label: "only: unreadable body", policy: only, body: "{", expected: "400: Request body is not valid JSON"),
    .init(label: "only: GET by path with typed variables", policy: only, method: .get, path: "listMoviesByGenre",
          query: "genre=ACTION&limit=5", expected: #"POST listMoviesByGenre {"genre":"ACTION","limit":5}"#),
    .init(label: "only: GET by path without query string", policy: only, method: .get, path: "appSetting",
          expected: "POST appSetting {}"),
    .init(label: "only: GET by path, wrong type", policy: only, method: .get, path: "listMoviesByGenre",
          query: "genre=ACTION&limit=five", expected: "400: Variable \"$limit\" must be an Int"),
    .init(label: "only: GET by path, missing variable", policy: only, method: .get, path: "listMoviesByGenre",
          expected: "400: Variable \"$genre\" of required type \"Genre!\" was not provided"),
    .init(label: "only: GET by path, unknown parameter", policy: only, method: .get, path: "listMoviesByGenre",
          query: "genre=A&sort=title", expected: "400: Unknown variable \"sort\" for operation \"listMoviesByGenre\""),
    .init(label: "only: GET by path, percent-encoded name", policy: only, method: .get, path: "app%53etting",
          expected: "POST appSetting {}"),
    .init(label: "only: GET by path, unknown operation", policy: only, method: .get, path: "nope",
          expected: "404: Unknown operation \"nope\""),
    .init(label: "only: GET mutation by path", policy: only, method: .get, path: "createUserToken", query: "email=a",
          expected: "405 allow POST: Mutations cannot be sent with GET; use POST"),
    .init(label: "only: GET mutation by operationName", policy: only, method: .get,
          query: "operationName=createUserToken", expected: "405 allow POST: Mutations cannot be sent with GET; use POST"),
    .init(label: "only: GET by path with query text", policy: only, method: .get, path: "appSetting", query: "query=%7Ba%7D",
          expected: "400: A call by name cannot carry \"query\" or \"extensions\" parameters"),
    .init(label: "only: GET by path with another operationName", policy: only, method: .get, path: "appSetting",
          query: "operationName=other",
          expected: "400: \"operationName\" does not match the operation \"appSetting\" named by the path"),
    .init(label: "only: POST ignores the path", policy: only, path: "whatever",
          body: #"{"operationName":"appSetting"}"#, expected: "POST appSetting {}"),
    .init(label: "only: GET APQ known", policy: only, method: .get, query: apqQuery(listMoviesHash) + "&genre=A",
          expected: #"POST listMoviesByGenre {"genre":"A"}"#),

    // only with an operations list
    .init(label: "only list: unlisted name is refused before lookup", policy: onlyListed, body: #"{"operationName":"nope"}"#,
          expected: "403 OPERATION_NOT_ALLOWED: Operation \"nope\" is not allowed on this route"),
    .init(label: "only list: unlisted path", policy: onlyListed, method: .get, path: "appSetting",
          expected: "403 OPERATION_NOT_ALLOWED: Operation \"appSetting\" is not allowed on this route"),
    .init(label: "only list: unlisted unknown path", policy: onlyListed, method: .get, path: "nope",
          expected: "403 OPERATION_NOT_ALLOWED: Operation \"nope\" is not allowed on this route"),
    .init(label: "only list: listed path", policy: onlyListed, method: .get, path: "listMoviesByGenre", query: "genre=A",
          expected: #"POST listMoviesByGenre {"genre":"A"}"#),

    // AEM upstreams
    .init(label: "AEM GET by path", policy: aem, method: .get, path: "adventures-by-activity",
          query: "activity=Surfing&limit=5", expected: "AEM /graphql/execute.json/wknd-shared/adventures-by-activity;activity=Surfing;limit=5"),
    .init(label: "AEM GET by path without variables", policy: aem, method: .get, path: "adventures-all",
          expected: "AEM /graphql/execute.json/wknd-shared/adventures-all"),
    .init(label: "AEM GET encodes values", policy: aem, method: .get, path: "q", query: "v=a%3Bb%3Dc%2Fd&w=x+y",
          expected: "AEM /graphql/execute.json/wknd-shared/q;v=a%3Bb%3Dc%2Fd;w=x%20y"),
    .init(label: "AEM GET variables JSON, parameters win", policy: aem, method: .get, path: "q",
          query: "variables=%7B%22b%22%3A2%2C%22a%22%3Atrue%7D&b=3", expected: "AEM /graphql/execute.json/wknd-shared/q;a=true;b=3"),
    .init(label: "AEM GET repeated parameter", policy: aem, method: .get, path: "q", query: "a=1&a=2",
          expected: "400: Variable \"$a\" is given more than once"),
    .init(label: "AEM POST by name", policy: aem,
          body: #"{"operationName":"by-slug","variables":{"slug":"bali","n":1,"o":{"k":[1]}}}"#,
          expected: "AEM /graphql/execute.json/wknd-shared/by-slug;n=1;o=%7B%22k%22:%5B1%5D%7D;slug=bali"),
    .init(label: "AEM pass-through", policy: aem, method: .get, path: "graphql/execute.json/wknd-shared/adventures-all;x=1",
          expected: "forward"),
    .init(label: "AEM pass-through on only, listed", policy: aemOnly, method: .get,
          path: "graphql/execute.json/wknd-shared/by-slug;slug=x", expected: "forward"),
    .init(label: "AEM pass-through on only, unlisted", policy: aemOnly, method: .get,
          path: "graphql/execute.json/wknd-shared/secret", expected: "403 OPERATION_NOT_ALLOWED: Operation \"secret\" is not allowed on this route"),
    // With a list, only `<aem_config>/<name>` passes: nothing that could reach another query.
    .init(label: "AEM pass-through on only, another configuration", policy: aemOnly, method: .get,
          path: "graphql/execute.json/other-config/by-slug",
          expected: aemPassThroughRefused),
    .init(label: "AEM pass-through on only, a segment before the name", policy: aemOnly, method: .get,
          path: "graphql/execute.json/wknd-shared/secret/by-slug",
          expected: aemPassThroughRefused),
    .init(label: "AEM pass-through on only, parameters on the configuration", policy: aemOnly, method: .get,
          path: "graphql/execute.json/wknd-shared;x=/by-slug",
          expected: aemPassThroughRefused),
    .init(label: "AEM pass-through on only, an encoded slash in the name", policy: aemOnly, method: .get,
          path: "graphql/execute.json/wknd-shared/secret%2Fby-slug",
          expected: "403 OPERATION_NOT_ALLOWED: Operation \"secret/by-slug\" is not allowed on this route"),
    .init(label: "AEM only refuses free-form", policy: aemOnly, body: #"{"query":"{ a }"}"#,
          expected: "403 OPERATION_NOT_ALLOWED: Only persisted operations are allowed on this route"),
    .init(label: "AEM only: unlisted name", policy: aemOnly, body: #"{"operationName":"other"}"#,
          expected: "403 OPERATION_NOT_ALLOWED: Operation \"other\" is not allowed on this route"),
    .init(label: "AEM allow forwards free-form", policy: aem, body: #"{"query":"{ a }"}"#, expected: "forward"),
    .init(label: "AEM has no APQ", policy: aem, body: "{\(apq(listMoviesHash))}",
          expected: "PERSISTED_QUERY_NOT_FOUND: PersistedQueryNotFound"),
    .init(label: "AEM deeper path", policy: aem, method: .get, path: "a/b", expected: "404: No operation at this path"),
    .init(label: "AEM dot-dot name", policy: aem, body: #"{"operationName":".."}"#, expected: "400: Invalid operation name"),
    .init(label: "AEM name with a slash", policy: aem, body: #"{"operationName":"../secret"}"#,
          expected: "400: Invalid operation name"),
    .init(label: "AEM without aem_config", policy: OperationPolicy(persisted: .allow, upstreamKind: .aem), method: .get,
          path: "q", expected: "internalError: The AEM upstream has no aem_config"),
]

@Test(arguments: decisionCases)
func decidesOperations(_ testCase: DecisionCase) {
    let bodyBytes = testCase.body.map { Array($0.utf8) }
    let queryBytes = testCase.query.map { Array($0.utf8)[...] }
    let decision: OperationDecision
    if let bodyBytes {
        decision = bodyBytes.withUnsafeBytes { body in
            testCase.policy.decide(method: testCase.method, pathRemainder: testCase.path, query: queryBytes,
                                   body: body, registry: registry)
        }
    } else {
        decision = testCase.policy.decide(method: testCase.method, pathRemainder: testCase.path, query: queryBytes,
                                          body: nil, registry: registry)
    }
    #expect(describe(decision) == testCase.expected)
}

// MARK: - Policy from configuration

@Test func policyComesFromRouteAndUpstream() throws {
    var route = RouteConfig(path: "/content/*", upstream: "content", auth: .none)
    route.persisted = .only
    route.operations = ["a", "b"]
    var upstream = UpstreamConfig(name: "content", url: UpstreamURL(scheme: .https, host: "aem", port: 443, path: "/"))
    upstream.kind = .aem
    upstream.aemConfig = "wknd-shared"
    let policy = OperationPolicy(route: route, upstream: upstream)
    #expect(policy == OperationPolicy(persisted: .only, allowList: ["a", "b"], upstreamKind: .aem, aemConfig: "wknd-shared"))
    #expect(policy.inspectsRequests)
    #expect(!OperationPolicy(persisted: .off).inspectsRequests)
    #expect(OperationPolicy(persisted: .off, allowList: ["a"]).inspectsRequests)
}

@Test func forwardedBodyIsTheStoredDocument() throws {
    let body = Array(#"{"operationName":"appSetting"}"#.utf8)
    let decision = body.withUnsafeBytes {
        only.decide(method: .post, pathRemainder: nil, query: nil, body: $0, registry: registry)
    }
    let expected = #"{"query":"query appSetting { appSetting { cdnUrl } }","operationName":"appSetting","variables":{}}"#
    #expect(decision == .forwardBody(Array(expected.utf8)))
}
