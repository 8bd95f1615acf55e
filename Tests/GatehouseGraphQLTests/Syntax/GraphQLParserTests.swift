import Testing
@testable import GatehouseGraphQL

// MARK: - Valid documents

/// A document that parses, and a summary of what the parser kept: each definition as
/// `kind name(vars) spreads`, fragments as `fragment name on Type spreads`.
struct ValidDocumentCase: CustomTestStringConvertible, Sendable {
    var source: String
    var summary: [String]
    var testDescription: String { String(source.prefix(100)) }
}

private func summarize(_ document: GraphQLDocument) -> [String] {
    let operations = document.operations.map { operation in
        let variables = operation.variables.map { variable in
            "$\(variable.name):\(variable.type)" + (variable.defaultValue.map { "=\($0.serializedString)" } ?? "")
        }
        let spreads = operation.fragmentSpreads.map { "...\($0.name)" }
        return ([operation.kind.rawValue, operation.name ?? "_", "(\(variables.joined(separator: ",")))"] + spreads)
            .joined(separator: " ")
    }
    let fragments = document.fragments.map { fragment in
        (["fragment", fragment.name, "on", fragment.typeCondition] + fragment.fragmentSpreads.map { "...\($0.name)" })
            .joined(separator: " ")
    }
    return operations + fragments
}

let validDocuments: [ValidDocumentCase] = [
    .init(source: "{ a }", summary: ["query _ ()"]),
    .init(source: "query { a }", summary: ["query _ ()"]),
    .init(source: "query Q { a }", summary: ["query Q ()"]),
    .init(source: "mutation M { a }", summary: ["mutation M ()"]),
    .init(source: "subscription S { a }", summary: ["subscription S ()"]),
    .init(source: "query A { a } query B { b }", summary: ["query A ()", "query B ()"]),
    .init(source: "query Q($id: ID!) { node(id: $id) { id } }", summary: ["query Q ($id:ID!)"]),
    .init(source: "query Q($ids: [ID!]!, $n: Int = 10) { a }", summary: ["query Q ($ids:[ID!]!,$n:Int=10)"]),
    .init(source: "query Q($m: [[Int]]) { a }", summary: ["query Q ($m:[[Int]])"]),
    .init(source: "query Q($f: Float = -1.5e3) { a }", summary: ["query Q ($f:Float=-1.5e3)"]),
    .init(source: "query Q($g: Genre = ACTION) { a }", summary: ["query Q ($g:Genre=\"ACTION\")"]),
    .init(source: "query Q($b: Boolean = false, $n: String = null) { a }",
          summary: ["query Q ($b:Boolean=false,$n:String=null)"]),
    .init(source: "query Q($o: In = {a: 1, b: [x, \"y\"], c: {d: null}}) { a }",
          summary: [#"query Q ($o:In={"a":1,"b":["x","y"],"c":{"d":null}})"#]),
    .init(source: "query Q($l: [Int] = []) { a }", summary: ["query Q ($l:[Int]=[])"]),
    .init(source: "query Q($o: In = {}) { a }", summary: ["query Q ($o:In={})"]),
    .init(source: #"query Q($s: String = "a\"b\\c\/d\n\t\u00e9") { a }"#,
          summary: [#"query Q ($s:String="a\"b\\c/d\n\té")"#]),
    .init(source: #"query Q($s: String = "\ud83d\ude00 é") { a }"#, summary: ["query Q ($s:String=\"😀 é\")"]),
    .init(source: "query Q($s: String = \"\"\"\n    hello\n      world\n    \"\"\") { a }",
          summary: [#"query Q ($s:String="hello\n  world")"#]),
    .init(source: "query Q($s: String = \"\"\"a \\\"\"\" b\"\"\") { a }",
          summary: [#"query Q ($s:String="a \"\"\" b")"#]),
    .init(source: "query Q($s: String = \"\"\"\"\"\") { a }", summary: [#"query Q ($s:String="")"#]),
    .init(source: "query Q($s: String = \"\"\"  first\n  second\"\"\") { a }",
          summary: [#"query Q ($s:String="  first\nsecond")"#]),
    .init(source: "query Q($s: String = \"\") { a }", summary: [#"query Q ($s:String="")"#]),
    .init(source: "# comment\nquery Q { # trailing\n a # more\n}", summary: ["query Q ()"]),
    .init(source: "query Q { a, b,, c }", summary: ["query Q ()"]),
    .init(source: "\u{FEFF}query Q { a }", summary: ["query Q ()"]),
    .init(source: "query Q\r\n{\r a\r\n}", summary: ["query Q ()"]),
    .init(source: "query Q @live(if: true) { a @include(if: $x) b @skip(if: false) }", summary: ["query Q ()"]),
    .init(source: "query Q($v: Int = 1 @deprecated) { a }", summary: ["query Q ($v:Int=1)"]),
    .init(source: "query Q { alias: field(arg: 1, other: \"x\", e: ENUM, l: [1, 2], o: {k: $v}) { id } }",
          summary: ["query Q ()"]),
    .init(source: "query Q { a { ...F } b { ...G ...F } }", summary: ["query Q () ...F ...G"]),
    .init(source: "query Q { ... on User { id } ... @include(if: true) { name } ... { x } }", summary: ["query Q ()"]),
    .init(source: "fragment F on User { id ...G }", summary: ["fragment F on User ...G"]),
    .init(source: "query Q { ...F } fragment F on T @dir { a }", summary: ["query Q () ...F", "fragment F on T"]),
    .init(source: "query Q { a(x: 0, y: -0, z: 1.0, w: 1e10, v: 2E-3) }", summary: ["query Q ()"]),
    .init(source: "query Q { on: field fragment: other query: q }", summary: ["query Q ()"]),
    .init(source: "query query { a }", summary: ["query query ()"]),
    .init(source: "query Q { a(s: \"\"\"block \"quoted\" \"\"\") }", summary: ["query Q ()"]),
    .init(source: "query Q { ... on T { a } }", summary: ["query Q ()"]),
    .init(source: "{\n  movies(genre: ACTION) {\n    title\n  }\n}", summary: ["query _ ()"]),
]

@Test(arguments: validDocuments)
func parsesValidDocument(_ testCase: ValidDocumentCase) throws {
    let document = try GraphQLParser.parse(testCase.source)
    #expect(summarize(document) == testCase.summary)
}

// MARK: - Invalid documents

struct InvalidDocumentCase: CustomTestStringConvertible, Sendable {
    var source: String
    /// `line:column: message`.
    var error: String
    var testDescription: String { String(source.prefix(100)) }
}

let invalidDocuments: [InvalidDocumentCase] = [
    .init(source: "", error: "1:1: Unexpected <EOF>"),
    .init(source: "   # only a comment", error: "1:20: Unexpected <EOF>"),
    .init(source: "{", error: "1:2: Expected Name, found <EOF>"),
    .init(source: "{ }", error: "1:3: Expected Name, found \"}\""),
    .init(source: "query Q", error: "1:8: Expected \"{\", found <EOF>"),
    .init(source: "query Q { a", error: "1:12: Expected Name, found <EOF>"),
    .init(source: "query Q { a(x: ) }", error: "1:16: Unexpected \")\""),
    .init(source: "query Q { a() }", error: "1:13: Expected Name, found \")\""),
    .init(source: "query Q($v: Int = $w) { a }", error: "1:19: Unexpected variable in a constant value"),
    .init(source: "query Q($v: Int = {a: $w}) { a }", error: "1:23: Unexpected variable in a constant value"),
    .init(source: "query Q($v) { a }", error: "1:11: Expected \":\", found \")\""),
    .init(source: "query Q($v: ) { a }", error: "1:13: Expected Name, found \")\""),
    .init(source: "query Q($v: [Int) { a }", error: "1:17: Expected \"]\", found \")\""),
    .init(source: "query Q() { a }", error: "1:9: Expected \"$\", found \")\""),
    .init(source: "query Q { a }\n}", error: "2:1: Unexpected \"}\""),
    .init(source: "query Q {\n  a(x: \"unterminated\n}", error: "2:21: Unterminated string"),
    .init(source: "{ a(x: \"bad \\q escape\") }", error: "1:13: Invalid character escape sequence: \\q"),
    .init(source: "{ a(x: \"\\u12G4\") }", error: "1:9: Invalid Unicode escape sequence: \\u12G4"),
    .init(source: "{ a(x: \"\\ud800\") }", error: "1:9: Invalid Unicode escape sequence: \\ud800"),
    .init(source: "{ a(x: \"\"\"never closed) }", error: "1:26: Unterminated string"),
    .init(source: "{ a(x: 00) }", error: "1:9: Invalid number, unexpected digit after 0: \"0\""),
    .init(source: "{ a(x: 1.) }", error: "1:10: Invalid number, expected digit but got: \")\""),
    .init(source: "{ a(x: 1.2.3) }", error: "1:11: Invalid number, expected digit but got: \".\""),
    .init(source: "{ a(x: 12abc) }", error: "1:10: Invalid number, expected digit but got: \"a\""),
    .init(source: "{ a(x: 1e) }", error: "1:10: Invalid number, expected digit but got: \")\""),
    .init(source: "{ a(x: -) }", error: "1:9: Invalid number, expected digit but got: \")\""),
    .init(source: "{ a ? }", error: "1:5: Unexpected character \"?\""),
    .init(source: "{ a .. b }", error: "1:5: Unexpected character \".\""),
    .init(source: "{ a \u{7} }", error: "1:5: Unexpected character U+0007"),
    .init(source: "{ é }", error: "1:3: Unexpected character \"é\""),
    .init(source: "{ a(x: \"tab\tok but bell \u{7}\") }", error: "1:25: Invalid character within String: U+0007"),
    .init(source: "type Query { a: Int }", error: "1:1: Unexpected Name \"type\": type system definitions are not executable"),
    .init(source: "fragment on on T { a }", error: "1:10: Unexpected Name \"on\""),
    .init(source: "fragment F T { a }", error: "1:12: Expected \"on\", found Name \"T\""),
    .init(source: "fragment F on T", error: "1:16: Expected \"{\", found <EOF>"),
    .init(source: "query Q { ...F @ }", error: "1:18: Expected Name, found \"}\""),
    .init(source: "query Q { a: }", error: "1:14: Expected Name, found \"}\""),
    .init(source: "quer Q { a }", error: "1:1: Unexpected Name \"quer\""),
    .init(source: "query Q { a(x: [1, 2) }", error: "1:21: Unexpected \")\""),
    .init(source: "query Q { a(x: {b 1}) }", error: "1:19: Expected \":\", found Int \"1\""),
    .init(source: "\n\n   query Q { a(x: $) }", error: "3:20: Expected Name, found \")\""),
    .init(source: "query Q { a }\n# é\n  é", error: "3:3: Unexpected character \"é\""),
    .init(source: "{ a(s: \"é\" x: @) }", error: "1:15: Unexpected \"@\""),
    .init(source: "query Q($v: Int!!) { a }", error: "1:17: Expected \"$\", found \"!\""),
    .init(source: "query Q { ...on }", error: "1:17: Expected Name, found \"}\""),
    .init(source: String(repeating: "{ a ", count: 200) + String(repeating: "}", count: 200),
          error: "1:513: Document is nested too deeply (more than 128 levels)"),
    .init(source: "{ a(x: " + String(repeating: "[", count: 300) + ") }",
          error: "1:135: Document is nested too deeply (more than 128 levels)"),
]

@Test(arguments: invalidDocuments)
func refusesInvalidDocument(_ testCase: InvalidDocumentCase) {
    #expect(throws: GraphQLSyntaxError.self) { try GraphQLParser.parse(testCase.source) }
    do {
        _ = try GraphQLParser.parse(testCase.source)
    } catch {
        #expect(error.description == testCase.error)
    }
}

// MARK: - Source ranges

@Test func sourceRangesCoverEachDefinition() throws {
    let source = "# header\nquery Q($a: Int) { a }\n\nfragment F on T { b }  # tail\n"
    let document = try GraphQLParser.parse(source)
    let bytes = Array(source.utf8)
    let operation = try #require(document.operations.first)
    let fragment = try #require(document.fragments.first)
    #expect(String(decoding: bytes[operation.sourceRange], as: UTF8.self) == "query Q($a: Int) { a }")
    #expect(String(decoding: bytes[fragment.sourceRange], as: UTF8.self) == "fragment F on T { b }")
    #expect(operation.position == GraphQLSourcePosition(line: 2, column: 1))
    #expect(fragment.position == GraphQLSourcePosition(line: 4, column: 1))
}

@Test func spreadPositionsPointAtTheName() throws {
    let document = try GraphQLParser.parse("query Q {\n  a { ...Frag }\n}")
    #expect(document.operations.first?.fragmentSpreads
            == [GraphQLFragmentSpread(name: "Frag", position: GraphQLSourcePosition(line: 2, column: 10))])
}

// MARK: - Executed operation

struct ExecutedOperationCase: Sendable, CustomTestStringConvertible {
    var source: String
    var operationName: String?
    /// The executed operation's name ("_" for anonymous) or the error message.
    var expected: String
    var testDescription: String { "\(source) / \(operationName ?? "nil")" }
}

@Test(arguments: [
    ExecutedOperationCase(source: "{ a }", operationName: nil, expected: "_"),
    ExecutedOperationCase(source: "query A { a }", operationName: nil, expected: "A"),
    ExecutedOperationCase(source: "query A { a } query B { b }", operationName: "B", expected: "B"),
    ExecutedOperationCase(source: "query A { a } query B { b }", operationName: nil,
                          expected: "Must provide operation name if query contains multiple operations"),
    ExecutedOperationCase(source: "query A { a }", operationName: "C", expected: "Unknown operation named \"C\""),
])
func findsTheExecutedOperation(_ testCase: ExecutedOperationCase) throws {
    let document = try GraphQLParser.parse(testCase.source)
    switch document.operationToExecute(named: testCase.operationName) {
    case .success(let operation): #expect((operation.name ?? "_") == testCase.expected)
    case .failure(let error): #expect(error.message == testCase.expected)
    }
}
