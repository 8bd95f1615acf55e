import Foundation
import GatehouseGraphQL
import Testing
@testable import GatehouseDemo

/// What the backend answers per request: the route, the service-token check, the body rules and
/// the AEM persisted queries. (The GraphQL answers themselves are DemoExecutorTests' rows.)
@Suite struct DemoBackendTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var request: String
        var status = 200
        var expected: String
        var testDescription: String { String(request.prefix(90)) }
    }

    static func get(_ target: String) -> String { "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n" }
    static let unauthorized = #"{"errors":[{"message":"Unauthorized","extensions":{"code":"UNAUTHENTICATED"}}],"data":null}"#
    static let appsetting = #"{"query":"{ appsetting { cdnUrl } }"}"#

    static let rows: [Row] = [
        Row(request: DemoTestSupport.post("/graphql", appsetting),
            expected: #"{"data":{"appsetting":{"cdnUrl":"https://cdn.example.com/"}}}"#),
        Row(request: DemoTestSupport.post("/graphql/noauth", #"{"query":"query appsetting { appsetting { cdnUrl minVersion } }","operationName":"appsetting"}"#),
            expected: #"{"data":{"appsetting":{"cdnUrl":"https://cdn.example.com/","minVersion":"1.0.0"}}}"#),
        Row(request: DemoTestSupport.post("/graphql/listMoviesByGenre", #"{"query":"query listMoviesByGenre($genre: String!, $limit: Int = 10) { listMoviesByGenre(genre: $genre, limit: $limit) { key } }","operationName":"listMoviesByGenre","variables":{"genre":"scifi","limit":1}}"#),
            expected: #"{"data":{"listMoviesByGenre":[{"key":"m6"}]}}"#),
        Row(request: DemoTestSupport.post("/graphql", #"{"query":"{ me { id } }"}"#,
                                          headers: [("X-Service-Token", "svc"), ("x-user-id", "alice")]),
            expected: #"{"data":{"me":{"id":"alice"}}}"#),
        Row(request: DemoTestSupport.post("/graphql", appsetting, headers: []), expected: unauthorized),
        Row(request: DemoTestSupport.post("/graphql", appsetting, headers: [("X-Service-Token", "wrong")]),
            expected: unauthorized),
        Row(request: DemoTestSupport.post("/graphql", "not json"), status: 400,
            expected: #"{"errors":[{"message":"Request body is not valid JSON"}]}"#),
        Row(request: DemoTestSupport.post("/graphql", #"{"variables":{}}"#), status: 400,
            expected: #"{"errors":[{"message":"Body must carry a \"query\" string"}]}"#),
        Row(request: get("/graphql"), status: 405,
            expected: #"{"errors":[{"message":"The demo backend takes GraphQL requests as POST"}]}"#),
        Row(request: get("/graphql/execute.json/wknd-shared/adventure-by-slug;slug=bali%2Dsurf-camp"),
            expected: #"{"data":{"adventureList":{"items":[{"title":"Bali Surf Camp","slug":"bali-surf-camp","price":5000,"tripLength":"6 Days"}]}}}"#),
        Row(request: get("/graphql/execute.json/wknd-shared/adventure-by-slug;slug=nowhere"),
            expected: #"{"data":{"adventureList":{"items":[]}}}"#),
        Row(request: get("/graphql/execute.json/wknd-shared/adventure-by-slug"),
            expected: #"{"data":{"adventureList":{"items":[]}}}"#),
        Row(request: get("/graphql/execute.json/wknd-shared/adventures-all"),
            expected: #"{"data":{"adventureList":{"items":[{"title":"Bali Surf Camp","slug":"bali-surf-camp","price":5000,"tripLength":"6 Days"},{"title":"Climbing New Zealand","slug":"climbing-new-zealand","price":900,"tripLength":"2 Days"},{"title":"Cycling Tuscany","slug":"cycling-tuscany","price":4500,"tripLength":"6 Days"},{"title":"Ski Touring Mont Blanc","slug":"ski-touring-mont-blanc","price":3500,"tripLength":"4 Days"}]}}}"#),
        Row(request: get("/graphql/execute.json/wknd-shared/unknown;a=b"),
            expected: #"{"errors":[{"message":"Persisted query not found"}]}"#),
        Row(request: get("/graphql/execute.json/other-site/adventures-all"),
            expected: #"{"errors":[{"message":"Persisted query not found"}]}"#),
        Row(request: get("/graphql/execute.json/wknd-shared/adventure-by-slug;slug=%zz"), status: 400,
            expected: #"{"errors":[{"message":"Malformed persisted query variables"}]}"#),
        Row(request: DemoTestSupport.post("/graphql/execute.json/wknd-shared/adventures-all", ""), status: 405,
            expected: #"{"errors":[{"message":"Persisted queries are read with GET"}]}"#),
        Row(request: get("/"), status: 404, expected: #"{"errors":[{"message":"Not found"}]}"#),
        Row(request: DemoTestSupport.post("/graphqlx", appsetting), status: 404,
            expected: #"{"errors":[{"message":"Not found"}]}"#),
    ]

    @Test(arguments: rows)
    func answers(_ row: Row) throws {
        let request = try #require(DemoTestSupport.request(row.request))
        let response = DemoTestSupport.backend().respond(to: request)
        #expect(response.status == row.status)
        #expect(DemoTestSupport.text(response.body) == row.expected)
    }

    @Test func withoutAServiceTokenEveryCallerIsServed() throws {
        let request = try #require(DemoTestSupport.request(DemoTestSupport.post("/graphql", Self.appsetting, headers: [])))
        let response = DemoTestSupport.backend(serviceToken: nil).respond(to: request)
        #expect(DemoTestSupport.text(response.body) == #"{"data":{"appsetting":{"cdnUrl":"https://cdn.example.com/"}}}"#)
    }

    // MARK: - Login tokens

    @Test func loginTokenIsAnHS256JWTForTheEmail() throws {
        let body = #"{"query":"mutation createUserToken($email: String!, $password: String!) { createUserToken(email: $email, password: $password) { token } }","variables":{"email":"alice@example.com","password":"pw"}}"#
        let request = try #require(DemoTestSupport.request(DemoTestSupport.post("/graphql/noauth", body)))
        let response = try JSONReader.parse(DemoTestSupport.backend().respond(to: request).body)
        let token = try #require(response["data"]?["createUserToken"]?["token"]?.stringValue)
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        #expect(try JSONReader.parse(Self.base64URLDecoded(parts[0]))["alg"] == .string("HS256"))
        let claims = try JSONReader.parse(Self.base64URLDecoded(parts[1]))
        #expect(claims.serializedString == #"{"sub":"alice@example.com","iat":1767225600,"exp":1767229200}"#)
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
