import Foundation
import GatehouseGraphQL
import Testing
@testable import GatehouseCore

// MARK: - Helpers

/// A fresh directory holding `files` (relative path -> text), removed after `body` ran.
private func withOperationsDirectory<Result>(_ files: [String: String],
                                             _ body: (String) throws -> Result) throws -> Result {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("gatehouse-ops-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for (path, text) in files {
        let full = directory + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
    }
    return try body(directory)
}

/// SHA-256 by coreutils' `sha256sum`, independent of the gateway's OpenSSL call.
private func referenceSHA256(_ text: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sha256sum"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
}

private func issues(_ result: Result<OperationRegistry, OperationLoadErrors>) -> [String] {
    if case .failure(let errors) = result { return errors.issues.map(\.description) }
    return []
}

// MARK: - Loading

@Test func knownDigests() {
    #expect(PersistedQueryHash.sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(PersistedQueryHash.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
}

@Test func loadsOperationsWithTheirFragments() throws {
    let movies = """
        # Movies by genre.
        query listMoviesByGenre($genre: Genre!, $limit: Int = 10) {
          movies(genre: $genre, limit: $limit) { ...MovieFields }
        }

        query movie($id: ID!) { movie(id: $id) { id } }
        """
    let fragments = """
        fragment MovieFields on Movie { title ...Rating }
        fragment Rating on Movie { rating }
        fragment Unused on Movie { id }
        """
    let login = "mutation createUserToken($email: String!) { createUserToken(email: $email) }\n"
    let registry = try withOperationsDirectory([
        "movies.graphql": movies, "fragments.graphql": fragments, "auth/login.graphql": login,
        "README.md": "not an operation {",
    ]) { directory in try OperationRegistry.load(directory: directory).get() }

    #expect(registry.operations.map(\.name) == ["createUserToken", "listMoviesByGenre", "movie"])
    let list = try #require(registry.operation(named: "listMoviesByGenre"))
    let expectedText = """
        query listMoviesByGenre($genre: Genre!, $limit: Int = 10) {
          movies(genre: $genre, limit: $limit) { ...MovieFields }
        }
        fragment MovieFields on Movie { title ...Rating }
        fragment Rating on Movie { rating }
        """
    #expect(list.text == expectedText)
    #expect(list.textBytes == Array(expectedText.utf8))
    #expect(list.kind == .query)
    #expect(list.variables == [
        VariableDefinition(name: "genre", type: .nonNull(.named("Genre"))),
        VariableDefinition(name: "limit", type: .named("Int"), defaultValue: .number("10")),
    ])
    let hash = try referenceSHA256(expectedText)
    #expect(list.sha256Hex == hash)
    #expect(registry.operation(sha256Hex: hash)?.name == "listMoviesByGenre")
    #expect(registry.operation(sha256Hex: hash.uppercased())?.name == "listMoviesByGenre")

    // A file with one operation is also known by the hash of the whole file, as written.
    let loginOperation = try #require(registry.operation(named: "createUserToken"))
    #expect(loginOperation.kind == .mutation)
    #expect(registry.operation(sha256Hex: try referenceSHA256(login))?.name == "createUserToken")
    #expect(registry.operation(sha256Hex: try referenceSHA256(loginOperation.text))?.name == "createUserToken")
    // A file with two operations is not.
    #expect(registry.operation(sha256Hex: try referenceSHA256(movies)) == nil)
    #expect(registry.operation(named: "nope") == nil)
    #expect(OperationRegistry.empty.operation(named: "movie") == nil)
}

@Test func requestBodyCarriesTheStoredText() throws {
    let registry = try OperationRegistry.load(sources: [(path: "a.graphql", text: "query q($n: Int) { a(n: $n) }")]).get()
    let operation = try #require(registry.operation(named: "q"))
    #expect(String(decoding: operation.requestBody(variables: ["n": .number("5")]), as: UTF8.self)
            == #"{"query":"query q($n: Int) { a(n: $n) }","operationName":"q","variables":{"n":5}}"#)
    #expect(String(decoding: operation.requestBody(variables: nil), as: UTF8.self)
            == #"{"query":"query q($n: Int) { a(n: $n) }","operationName":"q","variables":{}}"#)
}

// MARK: - Issues

struct RegistryIssueCase: Sendable, CustomTestStringConvertible {
    var name: String
    var sources: [String: String]
    var issues: [String]
    var testDescription: String { name }
}

@Test(arguments: [
    RegistryIssueCase(name: "anonymous operation", sources: ["a.graphql": "\n  { a }"],
                      issues: ["a.graphql:2:3: anonymous query: persisted operations must be named"]),
    RegistryIssueCase(name: "duplicate name across files",
                      sources: ["a.graphql": "query q { a }", "b/c.graphql": "# x\nmutation q { b }"],
                      issues: ["b/c.graphql:2:1: duplicate operation name \"q\" (first defined at a.graphql:1:1)"]),
    RegistryIssueCase(name: "syntax error", sources: ["a.graphql": "query q {\n  a(x: )\n}"],
                      issues: ["a.graphql:2:8: Unexpected \")\""]),
    RegistryIssueCase(name: "unknown fragment", sources: ["a.graphql": "query q {\n  a { ...Missing }\n}"],
                      issues: ["a.graphql:2:10: unknown fragment \"Missing\""]),
    RegistryIssueCase(name: "fragment cycle",
                      sources: ["a.graphql": "query q { ...A }", "f.graphql": "fragment A on T { ...B }\nfragment B on T { ...A }"],
                      issues: ["f.graphql:1:1: fragment cycle: A -> B -> A"]),
    RegistryIssueCase(name: "fragment spreading itself", sources: ["f.graphql": "fragment A on T { a ...A }"],
                      issues: ["f.graphql:1:1: fragment cycle: A -> A"]),
    RegistryIssueCase(name: "duplicate fragment",
                      sources: ["a.graphql": "fragment A on T { a }", "b.graphql": "fragment A on T { b }"],
                      issues: ["b.graphql:1:1: duplicate fragment name \"A\" (first defined at a.graphql:1:1)"]),
    RegistryIssueCase(name: "every issue at once, in file order",
                      sources: ["b.graphql": "{ x }", "a.graphql": "query q { ...Z }\nquery q { y }"],
                      issues: ["a.graphql:1:14: unknown fragment \"Z\"",
                               "a.graphql:2:1: duplicate operation name \"q\" (first defined at a.graphql:1:1)",
                               "b.graphql:1:1: anonymous query: persisted operations must be named"]),
])
func reportsRegistryIssues(_ testCase: RegistryIssueCase) throws {
    let found = try withOperationsDirectory(testCase.sources) { directory in
        issues(OperationRegistry.load(directory: directory)).map { issue in
            issue.replacingOccurrences(of: directory + "/", with: "")
        }
    }
    #expect(found == testCase.issues)
}

@Test func missingDirectoryIsAnIssue() {
    let result = OperationRegistry.load(directory: "/nonexistent/gatehouse-operations")
    #expect(issues(result) == ["/nonexistent/gatehouse-operations: cannot read the operations directory"])
}

@Test func invalidUTF8IsAnIssue() throws {
    let found = try withOperationsDirectory([:]) { directory in
        try Data([0x71, 0xFF, 0x7B]).write(to: URL(fileURLWithPath: directory + "/bad.graphql"))
        return issues(OperationRegistry.load(directory: directory)).map { String($0.dropFirst(directory.count + 1)) }
    }
    #expect(found == ["bad.graphql: the file is not valid UTF-8"])
}
