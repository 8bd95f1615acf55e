import Foundation
import GatehouseGraphQL
import Testing
@testable import GatehouseDemo

/// `config/schema.graphql` is what the backend answers, exactly: the file says what `DemoSchema`
/// says, the data fills exactly the declared fields, every root field has a resolver, and the
/// operations the gateway holds run against it without a single error.
@Suite struct DemoSchemaTests {
    /// The schema file without its comments and blank lines.
    static func schemaFileDefinitions() throws -> String {
        let text = try DemoTestSupport.file("config/schema.graphql")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let trimmed = code.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : String(code.reversed().drop { $0 == " " }.reversed())
        }
        return lines.joined(separator: "\n")
    }

    @Test func schemaFileSaysExactlyWhatTheBackendAnswers() throws {
        let rendered = DemoSchema.sdl.split(separator: "\n").joined(separator: "\n")
        #expect(try Self.schemaFileDefinitions() == rendered)
    }

    @Test func everyTypeNamedInTheSchemaIsDefined() {
        for type in DemoSchema.types {
            let fields = (type.fields ?? []) + {
                if case .input(_, let fields) = type { return fields.map { DemoFieldDefinition($0.name, $0.type) } }
                return []
            }()
            for field in fields {
                #expect(DemoSchema.type(named: field.type.namedType) != nil, "\(type.name).\(field.name)")
                for argument in field.arguments {
                    #expect(DemoSchema.type(named: argument.type.namedType) != nil, "\(type.name).\(field.name)(\(argument.name))")
                }
            }
        }
    }

    @Test(arguments: [
        DemoMovieStore.seedMovies[0].object,
        DemoMovie(key: "m9", title: "t", genre: "g").object,
        DemoAdventure.catalogue[0].object,
        DemoRootResolvers.appSetting,
    ].map { ($0.typeName, $0.fields.keys.sorted()) })
    func objectsCarryExactlyTheirTypesFields(_ typeName: String, _ fieldNames: [String]) throws {
        let type = try #require(DemoSchema.objectType(named: typeName))
        #expect(fieldNames == type.fields.map(\.name).sorted())
    }

    @Test func theUnlistedEnumValueIsReallyUnlisted() throws {
        guard case .enumeration(_, let values) = DemoSchema.type(named: "AspectRatio") else {
            Issue.record("AspectRatio is not an enum")
            return
        }
        let answered = Set(DemoMovieStore.seedMovies.compactMap(\.aspectRatio))
        #expect(answered.subtracting(values) == ["IMAX_EXPANDED"])
    }

    // MARK: - The held operations

    /// Variables for every operation in config/operations, as a client would send them.
    static let operationVariables: [String: String] = [
        "adventuresAll": "{}",
        "adventureBySlug": #"{"slug":"bali-surf-camp"}"#,
        "appsetting": "{}",
        "createMovie": #"{"title":"Dune","genre":"scifi","year":2021,"rating":8.1}"#,
        "createUserToken": #"{"email":"alice@example.com","password":"pw"}"#,
        "getMovieByKey": #"{"key":"m7"}"#,
        "listMoviesByGenre": #"{"genre":"drama","limit":2}"#,
        "me": "{}",
    ]

    static func heldOperations() throws -> [(name: String, document: GraphQLDocument)] {
        let directory = DemoTestSupport.repositoryRoot + "/config/operations"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".graphql") }
        return try files.sorted().flatMap { file in
            let document = try GraphQLParser.parse(try DemoTestSupport.file("config/operations/\(file)"),
                                                   keepingSelections: true)
            return document.operations.map { (name: $0.name ?? file, document: document) }
        }
    }

    @Test func everyHeldOperationRunsWithoutErrors() throws {
        let operations = try Self.heldOperations()
        #expect(Set(operations.map(\.name)) == Set(Self.operationVariables.keys))
        for (name, document) in operations {
            let variables = try #require(try JSONReader.parse(Self.operationVariables[name] ?? "{}").objectValue)
            let response = DemoTestSupport.executor().execute(document, operationName: name, variables: variables,
                                                              context: DemoRootResolvers.Context(userID: "alice"))
            #expect(response["errors"] == nil, "\(name): \(response.serializedString)")
            #expect(response["data"]?.objectValue?.isEmpty == false, "\(name)")
        }
    }

    @Test func everyRootFieldHasAResolver() throws {
        let resolvers = DemoRootResolvers(movies: DemoMovieStore(), tokenSecret: DemoTestSupport.secret, clock: { 0 })
        for rootType in [DemoSchema.queryType, DemoSchema.mutationType] {
            for field in try #require(DemoSchema.objectType(named: rootType)).fields {
                do {
                    _ = try resolvers.resolve(rootType, field.name, DemoArguments(), .init(userID: "alice"))
                } catch {
                    #expect(error.code != DemoErrorCode.internalError, "\(rootType).\(field.name): \(error.message)")
                }
            }
        }
    }
}
