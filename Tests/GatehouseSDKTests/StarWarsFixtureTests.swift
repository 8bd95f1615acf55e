import Foundation
import Testing
import GatehouseConfig
@testable import GatehouseSDK

// The Star Wars fixture (Fixtures/starwars) as `gatehouse sdk swift` sees it; scripts/test-sdk.sh
// builds what it generates.

private let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/starwars")

private func text(_ path: String) throws -> String {
    try String(contentsOf: fixture.appendingPathComponent(path), encoding: .utf8)
}

private func generateFixture() throws -> SwiftSDK.Output {
    let config = try ConfigLoader.load(yaml: try text("gatehouse.yaml"), environment: [:]).get()
    let names = ["fragments.graphql", "heroes.graphql", "reviews.graphql", "search.graphql"]
    let files = try names.map { (path: "operations/\($0)", text: try text("operations/\($0)")) }
    let held: Set<String> = ["heroForEpisode", "twoHeroes", "friendsOfFriends", "search", "starshipsByIds",
                             "reviews", "createReview"]
    return try SwiftSDK.generate(config: config, schemaText: try text("schema.graphql"), operationFiles: files,
                                 heldOperations: held,
                                 options: SwiftSDKOptions(packageName: "StarWarsAPI", customScalars: ["URL": "URL"],
                                                          schemaPath: "schema.graphql", configPath: "gatehouse.yaml")).get()
}

@Test func theStarWarsFixtureGeneratesEveryOperation() throws {
    let output = try generateFixture()
    #expect(output.warnings.isEmpty)
    let operations = output.files.map(\.path).filter { $0.hasPrefix("Sources/StarWarsAPI/Operations/") }
    #expect(operations.count == 7)
    let schemaTypes = output.files.map(\.path).filter { $0.hasPrefix("Sources/StarWarsAPI/Schema/") }.sorted()
    #expect(schemaTypes == ["Sources/StarWarsAPI/Schema/ColorInput.swift", "Sources/StarWarsAPI/Schema/CommentaryFilter.swift",
                            "Sources/StarWarsAPI/Schema/Episode.swift", "Sources/StarWarsAPI/Schema/ReviewFilter.swift",
                            "Sources/StarWarsAPI/Schema/ReviewInput.swift"])
}

@Test func theStarWarsFixtureHasNoDuplicateTopLevelTypes() throws {
    let output = try generateFixture()
    var declared: [String] = []
    for file in output.files {
        for line in file.contents.split(separator: "\n") where !line.hasPrefix(" ") {
            for keyword in ["public struct ", "public enum ", "struct ", "enum ", "actor "] where line.hasPrefix(keyword) {
                declared.append(String(line.dropFirst(keyword.count).prefix { $0 != ":" && $0 != " " && $0 != "<" }))
            }
        }
    }
    #expect(Set(declared).count == declared.count, "duplicates in \(declared.sorted())")
}

@Test func theStarWarsSearchIsPublicAndTheRestAuthenticated() throws {
    let files = Dictionary(uniqueKeysWithValues: try generateFixture().files.map { ($0.path, $0.contents) })
    #expect(files["Sources/StarWarsAPI/Operations/SearchQuery.swift"]?.contains("door: .public") == true)
    #expect(files["Sources/StarWarsAPI/Operations/ReviewsQuery.swift"]?.contains("door: .authenticated") == true)
    #expect(files["Sources/StarWarsAPI/Operations/CreateReviewMutation.swift"]?.contains("path: \"/graphql\"") == true)
}

@Test func inputObjectsThatHoldThemselvesAreBoxed() throws {
    let files = Dictionary(uniqueKeysWithValues: try generateFixture().files.map { ($0.path, $0.contents) })
    let filter = try #require(files["Sources/StarWarsAPI/Schema/ReviewFilter.swift"])
    #expect(filter.contains("""
        public var _not: ReviewFilter? {
            get { __notStorage?.value }
            set { __notStorage = newValue.map(IndirectInput.init) }
        }
        private var __notStorage: IndirectInput<ReviewFilter>?
    """))
    #expect(filter.contains("public var _and: [ReviewFilter]?\n"))
    #expect(filter.contains("case __notStorage = \"_not\""))
    let color = try #require(files["Sources/StarWarsAPI/Schema/ColorInput.swift"])
    #expect(!color.contains("IndirectInput"))
}
