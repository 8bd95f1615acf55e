import Testing
import GatehouseGraphQL
@testable import GatehouseSDK

/// An operation, and the door, method and path the client calls it with (nil: no route serves it).
struct RouteCase: CustomTestStringConvertible, Sendable {
    var name: String
    var kind: GraphQLOperationKind
    var expected: String?
    var testDescription: String { "\(kind.rawValue) \(name)" }
}

private let config = """
upstreams:
  app: { url: "http://127.0.0.1:4000/graphql" }
  content: { url: "http://127.0.0.1:4502", kind: aem, aem_config: site }
auth:
  user-jwt: { type: jwt, algorithms: [HS256], secret: "a-test-secret-of-at-least-32-bytes!!" }
routes:
  - { path: /graphql/noauth, methods: [POST], upstream: app, auth: none, operations: [login, settings] }
  - { path: /public/*, upstream: app, auth: none, persisted: only, operations: [settings] }
  - { path: /graphql, methods: [POST], upstream: app, auth: user-jwt, operations: [createMovie, listMovies, me] }
  - { path: /ops/*, upstream: app, auth: user-jwt, persisted: only, operations: [listMovies, me, onlyOps] }
  - { path: /raw, upstream: app, auth: user-jwt, persisted: off }
  - { path: /content/*, upstream: content, auth: user-jwt }
"""

let routeCases: [RouteCase] = [
    .init(name: "login", kind: .mutation, expected: "public POST /graphql/noauth"),
    .init(name: "settings", kind: .query, expected: "public GET /public/settings"),
    .init(name: "listMovies", kind: .query, expected: "authenticated GET /ops/listMovies"),
    .init(name: "createMovie", kind: .mutation, expected: "authenticated POST /graphql"),
    .init(name: "onlyOps", kind: .mutation, expected: "authenticated POST /ops/onlyOps"),
    .init(name: "adventures", kind: .query, expected: nil),
]

@Test(arguments: routeCases)
func operationsGoThroughTheDoorThatServesThem(_ row: RouteCase) throws {
    let route = RoutePlanner.route(for: row.name, kind: row.kind, config: try loadConfig(config))
    let described = route.map { "\($0.door.rawValue) \($0.method == .get ? "GET" : "POST") \($0.path)" }
    #expect(described == row.expected)
}
