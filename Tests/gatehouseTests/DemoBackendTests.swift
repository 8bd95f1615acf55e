import Foundation
import GatehouseConfig
import Testing
@testable import gatehouse

@Suite struct DemoBackendTests {
    static let secret = "demo-secret-0123456789abcdef-0123456789"

    static func backend() -> DemoBackend {
        DemoBackend(tokenSecret: secret, serviceToken: "svc")
    }

    static func request(_ method: String, _ target: String, body: String = "",
                        headers: [(String, String)] = [("X-Service-Token", "svc")]) -> DemoRequest {
        let question = target.firstIndex(of: "?")
        return DemoRequest(method: method, path: String(target[..<(question ?? target.endIndex)]),
                           query: question.map { String(target[target.index(after: $0)...]) },
                           version: "HTTP/1.1", headers: headers.map { (name: $0.0, value: $0.1) },
                           body: Array(body.utf8))
    }

    // MARK: - Responses

    struct Row: CustomStringConvertible, Sendable {
        var method = "POST"
        var target = "/graphql"
        var body = ""
        var headers: [String: String] = ["X-Service-Token": "svc"]
        var status = 200
        var expected: String
        var description: String { "\(method) \(target) \(body)" }
    }

    @Test(arguments: [
        Row(body: #"{"query":"query appsetting { appsetting { cdnUrl minVersion } }"}"#,
            expected: #"{"data":{"appsetting":{"cdnUrl":"https://cdn.example.com/","minVersion":"1.0.0"}}}"#),
        Row(target: "/graphql/noauth", body: #"{"operationName":"appsetting"}"#,
            expected: #"{"data":{"appsetting":{"cdnUrl":"https://cdn.example.com/","minVersion":"1.0.0"}}}"#),
        Row(target: "/graphql/listMoviesByGenre",
            body: #"{"query":"query listMoviesByGenre($genre: String!, $limit: Int = 10) { listMoviesByGenre(genre: $genre, limit: $limit) { key } }","operationName":"listMoviesByGenre","variables":{"genre":"scifi","limit":1}}"#,
            expected: #"{"data":{"listMoviesByGenre":[{"genre":"scifi","key":"m6","rating":7.9,"title":"Arrival","year":2016}]}}"#),
        Row(body: #"{"query":"{ m: getMovieByKey(key: \"m4\") { key } }"}"#,
            expected: #"{"data":{"m":{"genre":"comedy","key":"m4","rating":8,"title":"Groundhog Day","year":1993}}}"#),
        Row(body: #"{"query":"query getMovieByKey($key: ID!) { getMovieByKey(key: $key) { key } }","variables":{"key":"nope"}}"#,
            expected: #"{"data":{"getMovieByKey":null}}"#),
        Row(body: #"{"query":"{ getMovieByKey { key } }"}"#,
            expected: #"{"data":null,"errors":[{"extensions":{"code":"BAD_USER_INPUT"},"message":"Argument \"key\" of required type \"ID!\" was not provided."}]}"#),
        Row(body: #"{"query":"query me { me { id } }"}"#, headers: ["X-Service-Token": "svc", "x-user-id": "alice"],
            expected: #"{"data":{"me":{"id":"alice"}}}"#),
        Row(body: #"{"query":"{ viewer { id } }"}"#,
            expected: #"{"data":null,"errors":[{"extensions":{"code":"UNAUTHENTICATED"},"message":"Unauthorized"}]}"#),
        Row(body: #"{"query":"{ appsetting { cdnUrl } }"}"#, headers: [:],
            expected: #"{"data":null,"errors":[{"extensions":{"code":"UNAUTHENTICATED"},"message":"Unauthorized"}]}"#),
        Row(body: #"{"query":"{ appsetting { cdnUrl } }"}"#, headers: ["X-Service-Token": "wrong"],
            expected: #"{"data":null,"errors":[{"extensions":{"code":"UNAUTHENTICATED"},"message":"Unauthorized"}]}"#),
        Row(body: #"{"query":"{ hello }"}"#,
            expected: #"{"errors":[{"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"},"message":"Cannot query field \"hello\" on type \"Query\"."}]}"#),
        Row(body: #"{"query":"mutation { deleteEverything }"}"#,
            expected: #"{"errors":[{"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"},"message":"Cannot query field \"deleteEverything\" on type \"Mutation\"."}]}"#),
        Row(body: #"{"query":"{ oops( }"}"#,
            expected: #"{"errors":[{"extensions":{"code":"GRAPHQL_PARSE_FAILED"},"message":"Syntax Error: Expected Name, found \"}\"."}]}"#),
        Row(body: #"{"query":"mutation { createUserToken(email: \"a@b.c\", password: \"\") { token } }"}"#,
            expected: #"{"data":null,"errors":[{"extensions":{"code":"BAD_USER_INPUT"},"message":"Invalid email or password"}]}"#),
        Row(body: "not json", status: 400, expected: #"{"errors":[{"message":"Body must be a JSON object with a GraphQL query"}]}"#),
        Row(body: #"{"variables":{}}"#, status: 400, expected: #"{"errors":[{"message":"Body must carry a \"query\" string"}]}"#),
        Row(method: "GET", status: 405, expected: #"{"errors":[{"message":"The demo backend takes GraphQL requests as POST"}]}"#),
        Row(method: "GET", target: "/graphql/execute.json/wknd-shared/adventure-by-slug;slug=bali%2Dsurf-camp",
            expected: #"{"data":{"adventureList":{"items":[{"price":5000,"slug":"bali-surf-camp","title":"Bali Surf Camp","tripLength":"6 Days"}]}}}"#),
        Row(method: "GET", target: "/graphql/execute.json/wknd-shared/adventure-by-slug;slug=nowhere",
            expected: #"{"data":{"adventureList":{"items":[]}}}"#),
        Row(method: "GET", target: "/graphql/execute.json/wknd-shared/adventure-by-slug",
            expected: #"{"data":{"adventureList":{"items":[]}}}"#),
        Row(method: "GET", target: "/graphql/execute.json/wknd-shared/unknown;a=b",
            expected: #"{"errors":[{"message":"Persisted query not found"}]}"#),
        Row(method: "GET", target: "/graphql/execute.json/other-site/adventures-all",
            expected: #"{"errors":[{"message":"Persisted query not found"}]}"#),
        Row(method: "GET", target: "/graphql/execute.json/wknd-shared/adventure-by-slug;slug=%zz", status: 400,
            expected: #"{"errors":[{"message":"Malformed persisted query variables"}]}"#),
        Row(method: "POST", target: "/graphql/execute.json/wknd-shared/adventures-all", status: 405,
            expected: #"{"errors":[{"message":"Persisted queries are read with GET"}]}"#),
        Row(method: "GET", target: "/", status: 404, expected: #"{"errors":[{"message":"Not found"}]}"#),
        Row(method: "POST", target: "/graphqlx", status: 404, expected: #"{"errors":[{"message":"Not found"}]}"#),
    ])
    func answers(_ row: Row) {
        let response = Self.backend().respond(to: Self.request(row.method, row.target, body: row.body,
                                                               headers: row.headers.map { ($0.key, $0.value) }))
        #expect(response.status == row.status)
        #expect(String(decoding: response.body, as: UTF8.self) == row.expected)
        #expect(response.contentType == "application/json")
    }

    @Test func listsAllAdventures() throws {
        let response = Self.backend().respond(to: Self.request("GET", "/graphql/execute.json/wknd-shared/adventures-all"))
        let object = try #require(DemoJSON.object(from: response.body))
        let items = ((object["data"] as? [String: Any])?["adventureList"] as? [String: Any])?["items"] as? [Any]
        #expect(items?.count == DemoBackend.adventures.count)
    }

    @Test func createdMoviesAreListedByTheirGenre() throws {
        let backend = Self.backend()
        let create = #"{"operationName":"createMovie","query":"mutation createMovie($title: String!, $genre: String!, $year: Int) { createMovie(title: $title, genre: $genre, year: $year) { key } }","variables":{"title":"Dune","genre":"Epic","year":2021}}"#
        let created = backend.respond(to: Self.request("POST", "/graphql", body: create))
        #expect(String(decoding: created.body, as: UTF8.self)
            == #"{"data":{"createMovie":{"genre":"Epic","key":"m8","rating":null,"title":"Dune","year":2021}}}"#)
        let listed = backend.respond(to: Self.request("POST", "/graphql",
                                                      body: #"{"query":"{ listMoviesByGenre(genre: \"epic\") { key } }"}"#))
        #expect(String(decoding: listed.body, as: UTF8.self).contains(#""key":"m8""#))
    }

    // MARK: - Login tokens

    @Test func loginTokenIsAnHS256JWTForTheEmail() throws {
        let body = #"{"query":"mutation createUserToken($email: String!, $password: String!) { createUserToken(email: $email, password: $password) { token } }","variables":{"email":"alice@example.com","password":"pw"}}"#
        let before = Int(Date().timeIntervalSince1970)
        let response = Self.backend().respond(to: Self.request("POST", "/graphql/noauth", body: body))
        let object = try #require(DemoJSON.object(from: response.body))
        let token = try #require(((object["data"] as? [String: Any])?["createUserToken"] as? [String: Any])?["token"]
            as? String)
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let header = try #require(DemoJSON.object(from: Self.base64URLDecoded(parts[0])))
        let claims = try #require(DemoJSON.object(from: Self.base64URLDecoded(parts[1])))
        #expect(header["alg"] as? String == "HS256")
        #expect(claims["sub"] as? String == "alice@example.com")
        let expiry = try #require(DemoJSON.int(claims["exp"]))
        #expect((before + 3600)...(before + 3602) ~= expiry)
    }

    static func base64URLDecoded(_ text: String) -> [UInt8] {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return [UInt8](Data(base64Encoded: base64) ?? Data())
    }

    // MARK: - Percent-decoding

    @Test(arguments: [
        ("plain", "plain"), ("a%3Bb%3Dc", "a;b=c"), ("%C3%A9t%C3%A9", "été"), ("", ""),
        ("100%25", "100%"), ("%2f", "/"),
    ])
    func percentDecodes(_ encoded: String, _ decoded: String) {
        #expect(DemoBackend.percentDecoded(encoded[...]) == decoded)
    }

    @Test(arguments: ["%", "%4", "%zz", "%C3", "a%g1"])
    func refusesBrokenEscapes(_ encoded: String) {
        #expect(DemoBackend.percentDecoded(encoded[...]) == nil)
    }
}
