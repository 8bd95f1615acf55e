import Testing
@testable import GatehouseSDK

// Each test generates a small package and checks snippets of it, as they are written.

private let operations = """
query settings { settings { cdnUrl } }
mutation login($email: String!, $password: String!) { login(email: $email, password: $password) { token } }
query listMoviesByGenre($genre: String!, $limit: Int = 10) { listMoviesByGenre(genre: $genre, limit: $limit) { key title } }
query getMovieByKey($key: ID!) { movie: getMovieByKey(key: $key) { id title genre director { name } cast { name born } } }
query moviesByGenres($genres: [Genre!]!, $filter: MovieFilter) { moviesByGenres(genres: $genres, filter: $filter) { key } }
mutation createMovie($input: MovieInput!) { createMovie(input: $input) { key } }
"""

private func file(_ name: String) throws -> String {
    let files = try generate(operations, against: moviesSDL)
    return try #require(files[name], "no \(name) among \(files.keys.sorted())")
}

@Test func resultTypesNestUnderTheirFields() throws {
    let source = try file("Sources/MoviesAPI/Operations/GetMovieByKeyQuery.swift")
    #expect(source.contains("""
            public struct Movie: Decodable, Sendable, Hashable, Identifiable {
                public let id: String
                public let title: String
                public let genre: Genre?
                public let director: Director?
                public let cast: [Cast]

                public struct Director: Decodable, Sendable, Hashable {
                    public let name: String
                }
    """))
}

@Test func publicOperationsPostByNameWithoutAToken() throws {
    let source = try file("Sources/MoviesAPI/Operations/LoginMutation.swift")
    #expect(source.contains("public func login(email: String, password: String) async throws -> LoginMutation.Data {"))
    #expect(source.contains("""
            return try await post(LoginMutation.Data.self, path: "/graphql/noauth",
                                  operationName: LoginMutation.operationName, variables: variables,
                                  door: .public, fetchPolicy: nil)
    """))
}

@Test func queriesAreCalledByNameOverGetWithTypedParameters() throws {
    let source = try file("Sources/MoviesAPI/Operations/ListMoviesByGenreQuery.swift")
    #expect(source.contains("public func listMoviesByGenre(genre: String, limit: Int? = nil, fetchPolicy: FetchPolicy = .preferCache)"))
    #expect(source.contains("""
            query.append("genre", variables.genre)
            query.append("limit", variables.limit)
            return try await get(ListMoviesByGenreQuery.Data.self, path: "/ops/listMoviesByGenre", query: query,
                                 door: .authenticated, fetchPolicy: fetchPolicy)
    """))
}

@Test func inputObjectsTravelAsVariablesJSON() throws {
    let source = try file("Sources/MoviesAPI/Operations/MoviesByGenresQuery.swift")
    #expect(source.contains("try query.appendJSON(\"variables\", variables)"))
    #expect(source.contains("public var genres: [Genre]"))
}

@Test func mutationsOnTheAuthenticatedDoorPostToTheExactRoute() throws {
    let source = try file("Sources/MoviesAPI/Operations/CreateMovieMutation.swift")
    #expect(source.contains("path: \"/graphql\""))
    #expect(source.contains("door: .authenticated, fetchPolicy: nil)"))
}

@Test func enumsKeepUnknownValues() throws {
    let source = try file("Sources/MoviesAPI/Schema/Genre.swift")
    #expect(source.contains("""
        case DRAMA
        case COMEDY
        case `default`
        /// A value this client does not know (the schema grew after it was generated), as sent.
        case _UNKNOWN(String)
    """))
    #expect(source.contains("        case \"default\": self = .`default`\n        default: self = ._UNKNOWN(rawValue)"))
}

@Test func inputFieldsWithDefaultsAreOptional() throws {
    let source = try file("Sources/MoviesAPI/Schema/MovieInput.swift")
    #expect(source.contains("public init(title: String, genre: Genre? = nil, year: Int? = nil)"))
}

@Test func onlyTheTypesTheOperationsUseAreWritten() throws {
    let files = try generate(operations, against: moviesSDL)
    let schemaFiles = files.keys.filter { $0.hasPrefix("Sources/MoviesAPI/Schema/") }.sorted()
    #expect(schemaFiles == ["Sources/MoviesAPI/Schema/Genre.swift", "Sources/MoviesAPI/Schema/MovieFilter.swift",
                            "Sources/MoviesAPI/Schema/MovieInput.swift"])
}

@Test func theManifestHasNoDependencies() throws {
    let manifest = try file("Package.swift")
    #expect(manifest.hasPrefix("// swift-tools-version:6.0\n"))
    #expect(manifest.contains("targets: [.target(name: \"MoviesAPI\")]"))
    #expect(manifest.contains("swiftLanguageModes: [.v6]"))
    #expect(!manifest.contains("dependencies:"))
}

@Test func theRuntimeImportsFoundationNetworkingOnLinux() throws {
    let client = try file("Sources/MoviesAPI/Runtime/GatehouseClient.swift")
    #expect(client.contains("#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif"))
}

// MARK: - Names

@Test func nestedNamesAvoidEnclosingSwiftAndSchemaTypes() throws {
    let sdl = """
    type Query { node: Node }
    type Node { string: Node date: Node genre: Node node: Node name: String g: Genre }
    enum Genre { A }
    """
    let document = "query q { node { string { name } date { name } genre { g } node { node { name } } } }"
    let source = try #require(try generate(document, against: sdl)["Sources/MoviesAPI/Operations/QQuery.swift"])
    #expect(source.contains("public let string: StringSelection?"))
    #expect(source.contains("public let date: DateSelection?"))
    #expect(source.contains("public let genre: GenreSelection?"))
    #expect(source.contains("public let node: NodeSelection?"))
    #expect(source.contains("public struct NodeSelection: Decodable"))
    #expect(source.contains("public let g: Genre?"))
}

@Test func keywordFieldsAndAliasesAreEscaped() throws {
    let sdl = "type Query { movie: Movie } type Movie { default: String in: Int title: String }"
    let document = "query q { movie { default in for: title } }"
    let source = try #require(try generate(document, against: sdl)["Sources/MoviesAPI/Operations/QQuery.swift"])
    #expect(source.contains("public let `default`: String?\n"))
    #expect(source.contains("public let `in`: Int?\n"))
    #expect(source.contains("public let `for`: String?\n"))
}

@Test func narrowingFragmentsDecodeByTypename() throws {
    let document = "query hero { hero { __typename name ... on Human { homePlanet } } }"
    let source = try #require(try generate(document, against: starWarsSDL)["Sources/MoviesAPI/Operations/HeroQuery.swift"])
    #expect(source.contains("public let asHuman: AsHuman?"))
    #expect(source.contains("self.asHuman = [\"Human\"].contains(self.__typename) ? try AsHuman(from: decoder) : nil"))
    #expect(source.contains("enum CodingKeys: String, CodingKey {\n                case __typename\n                case name\n            }"))
}

@Test func customScalarsUseTheConfiguredType() throws {
    let sdl = "scalar URL scalar Money scalar Any type Query { site: Site } type Site { url: URL price: Money extra: Any }"
    let source = try #require(try generate("query site { site { url price extra } }", against: sdl,
                                           scalars: ["URL": "URL"])["Sources/MoviesAPI/Operations/SiteQuery.swift"])
    #expect(source.contains("public let url: URL?"))
    #expect(source.contains("public let price: String?"))
    #expect(source.contains("public let extra: JSONValue?"))
}

@Test func aVariableNamedFetchPolicyKeepsItsName() throws {
    let sdl = "type Query { movies(fetchPolicy: String): [String!]! }"
    let document = "query movies($fetchPolicy: String) { movies(fetchPolicy: $fetchPolicy) }"
    let source = try #require(try generate(document, against: sdl)["Sources/MoviesAPI/Operations/MoviesQuery.swift"])
    #expect(source.contains("public func movies(fetchPolicy: String? = nil, gatewayFetchPolicy: FetchPolicy = .preferCache)"))
    #expect(source.contains("fetchPolicy: gatewayFetchPolicy)"))
}
