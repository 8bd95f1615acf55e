import Testing
import GatehouseConfig
@testable import GatehouseSDK

/// Doors like the demo's: a public route for `login` and `settings`, a `persisted: only` prefix
/// route for calls by name, and the authenticated exact route.
let generatorConfigYAML = """
upstreams:
  app: { url: "http://127.0.0.1:4000/graphql" }
auth:
  user-jwt: { type: jwt, algorithms: [HS256], secret: "a-test-secret-of-at-least-32-bytes!!" }
routes:
  - { path: /graphql/noauth, methods: [POST], upstream: app, auth: none, operations: [login, settings] }
  - { path: /graphql, methods: [POST], upstream: app, auth: user-jwt }
  - { path: /ops/*, upstream: app, auth: user-jwt, persisted: only }
"""

func loadConfig(_ yaml: String = generatorConfigYAML) throws -> GatewayConfig {
    try ConfigLoader.load(yaml: yaml, environment: [:]).get()
}

/// The generated files for `operations` against `sdl`, by path.
func generate(_ operations: String, against sdl: String, scalars: [String: String] = [:],
              config yaml: String = generatorConfigYAML) throws -> [String: String] {
    let config = try loadConfig(yaml)
    let options = SwiftSDKOptions(packageName: "MoviesAPI", customScalars: scalars, schemaPath: "schema.graphql",
                                  configPath: "gatehouse.yaml")
    let held = Set(try resolveNames(operations, against: sdl))
    let output = try SwiftSDK.generate(config: config, schemaText: sdl, operationFiles: [("ops.graphql", operations)],
                                       heldOperations: held, options: options).get()
    return Dictionary(uniqueKeysWithValues: output.files.map { ($0.path, $0.contents) })
}

private func resolveNames(_ operations: String, against sdl: String) throws -> [String] {
    try resolve(operations, against: sdl).get().map(\.name)
}

/// The movies schema of the seed apps, with an enum and an input object.
let moviesSDL = """
type Query {
  settings: Settings!
  listMoviesByGenre(genre: String!, limit: Int = 10): [Movie!]!
  getMovieByKey(key: ID!): Movie
  moviesByGenres(genres: [Genre!]!, filter: MovieFilter): [Movie]
}
type Mutation { login(email: String!, password: String!): Token! createMovie(input: MovieInput!): Movie! }
type Settings { cdnUrl: String! }
type Token { token: String! }
type Person { name: String! born: Int }
type Movie { id: ID! key: ID! title: String! genre: Genre rating: Float director: Person cast: [Person!]! }
enum Genre { DRAMA COMEDY default }
input MovieFilter { minRating: Float }
input MovieInput { title: String! genre: Genre year: Int = 2000 }
"""
