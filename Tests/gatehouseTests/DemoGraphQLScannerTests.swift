import Testing
@testable import gatehouse

@Suite struct DemoGraphQLScannerTests {
    struct Row: CustomStringConvertible, Sendable {
        var document: String
        var operationName: String? = nil
        var type = "query"
        var field: String
        var key: String? = nil
        /// Arguments rendered as sorted `name=value` pairs; nil: no argument list.
        var arguments: String? = nil
        var description: String { document }
    }

    static let variables: [String: String] = ["e": "alice@example.com", "g": "drama"]

    @Test(arguments: [
        Row(document: "{ appsetting { cdnUrl } }", field: "appsetting"),
        Row(document: "query appsetting { appsetting { cdnUrl minVersion } }", field: "appsetting"),
        Row(document: "mutation createUserToken($email: String!) { createUserToken(email: $e, password: \"pw\") { token } }",
            type: "mutation", field: "createUserToken", arguments: "email=alice@example.com,password=pw"),
        Row(document: "{ movie: getMovieByKey(key: \"m1\") { key } }", field: "getMovieByKey", key: "movie",
            arguments: "key=m1"),
        Row(document: "{ listMoviesByGenre(genre: $g, limit: 2) { key } }", field: "listMoviesByGenre",
            arguments: "genre=drama,limit=2"),
        Row(document: "{ listMoviesByGenre(genre: $missing) { key } }", field: "listMoviesByGenre", arguments: ""),
        Row(document: "{ listMoviesByGenre(genre: DRAMA, limit: -1) { key } }", field: "listMoviesByGenre",
            arguments: "genre=DRAMA,limit=-1"),
        Row(document: "# comment { not a brace\nquery q { me { id } }", field: "me"),
        Row(document: "query q($d: String = \"{\") { me { id } }", field: "me"),
        Row(document: "query q($d: In = {a: 1}) @cached { viewer { id } }", field: "viewer"),
        Row(document: "fragment F on Movie { key }\nquery { listMoviesByGenre(genre: \"x\") { ...F } }",
            field: "listMoviesByGenre", arguments: "genre=x"),
        Row(document: "query a { me { id } }\nquery b { appsetting { cdnUrl } }", operationName: "b",
            field: "appsetting"),
        Row(document: "{ getMovieByKey(key: \"m\\u0031\\n\") { key } }", field: "getMovieByKey", arguments: "key=m1\n"),
        Row(document: "{ getMovieByKey(key: \"\"\"m\"1\"\"\") { key } }", field: "getMovieByKey", arguments: "key=m\"1"),
        Row(document: "{ adventureList(filter: {slug: {_expressions: [{value: $g}]}}) { items { slug } } }",
            field: "adventureList", arguments: "filter=[\"slug\": [\"_expressions\": [[\"value\": \"drama\"]]]]"),
        Row(document: "subscription s { me { id } }", type: "subscription", field: "me"),
    ])
    func scansFirstRootField(_ row: Row) throws {
        let selection = try DemoGraphQLScanner.firstSelection(in: row.document, operationName: row.operationName,
                                                              variables: Self.variables)
        #expect(selection.operationType == row.type)
        #expect(selection.fieldName == row.field)
        #expect(selection.responseKey == (row.key ?? row.field))
        let rendered = selection.arguments.map { arguments in
            arguments.keys.sorted().map { "\($0)=\(arguments[$0]!)" }.joined(separator: ",")
        }
        #expect(rendered == row.arguments)
    }

    @Test(arguments: [
        ("", nil, "Document has no operation."),
        ("query a { me { id } }", "b", "Unknown operation named \"b\"."),
        ("type Query { me: User }", nil, "Syntax Error: Unexpected Name \"type\"."),
        ("{ me(id: \"unterminated) { id } }", nil, "Syntax Error: Unterminated string."),
        ("{ me(id \"x\") { id } }", nil, "Syntax Error: Expected \":\" after argument \"id\"."),
        ("{ }", nil, "Syntax Error: Expected Name, found \"}\"."),
        ("query q", nil, "Syntax Error: Expected \"{\", found <EOF>."),
        ("{ me(id: \"\\q\") { id } }", nil, "Syntax Error: Invalid character escape sequence."),
    ] as [(String, String?, String)])
    func refusesWhatItCannotScan(_ document: String, _ operationName: String?, _ message: String) {
        #expect(throws: DemoGraphQLScanError.self) {
            _ = try DemoGraphQLScanner.firstSelection(in: document, operationName: operationName, variables: [:])
        }
        do {
            _ = try DemoGraphQLScanner.firstSelection(in: document, operationName: operationName, variables: [:])
        } catch {
            #expect(error.message == message)
        }
    }
}
