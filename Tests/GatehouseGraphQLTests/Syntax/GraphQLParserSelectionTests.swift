import Testing
@testable import GatehouseGraphQL

/// `keepingSelections: true` keeps what an executor needs — fields with aliases, arguments as
/// written (variables included), directives, fragment spreads and inline fragments — and the
/// default parse keeps none of it.
struct KeptSelectionCase: CustomTestStringConvertible, Sendable {
    var source: String
    /// The operation's selection set, rendered by `render`.
    var rendered: String
    var testDescription: String { source }
}

private func render(_ selections: [GraphQLSelection]) -> String {
    selections.map { selection in
        switch selection {
        case .field(let field):
            var text = field.alias.map { "\($0):" } ?? ""
            text += field.name
            if !field.arguments.isEmpty {
                text += "(" + field.arguments.map { "\($0.name):\(render($0.value))" }.joined(separator: ",") + ")"
            }
            text += render(field.directives)
            if !field.selections.isEmpty { text += "{" + render(field.selections) + "}" }
            return text
        case .fragmentSpread(let name, let directives):
            return "...\(name)" + render(directives)
        case .inlineFragment(let condition, let directives, let inner):
            return "..." + (condition.map { "on \($0)" } ?? "") + render(directives) + "{" + render(inner) + "}"
        }
    }.joined(separator: " ")
}

private func render(_ directives: [GraphQLDirective]) -> String {
    directives.map { directive in
        "@\(directive.name)" + (directive.arguments.isEmpty ? "" :
            "(" + directive.arguments.map { "\($0.name):\(render($0.value))" }.joined(separator: ",") + ")")
    }.joined()
}

private func render(_ value: GraphQLInputValue) -> String {
    switch value {
    case .variable(let name): "$\(name)"
    case .number(let lexeme): lexeme
    case .string(let text): "\"\(text)\""
    case .bool(let flag): String(flag)
    case .null: "null"
    case .enumValue(let name): name
    case .list(let elements): "[" + elements.map(render).joined(separator: ",") + "]"
    case .object(let fields): "{" + fields.map { "\($0.name):\(render($0.value))" }.joined(separator: ",") + "}"
    }
}

@Test(arguments: [
    KeptSelectionCase(source: "{ a }", rendered: "a"),
    KeptSelectionCase(source: "{ x: a b { c } }", rendered: "x:a b{c}"),
    KeptSelectionCase(source: "query ($g: G) { m(genre: $g, n: 1.5, s: \"t\", e: DRAMA, b: true, z: null) { k } }",
                      rendered: "m(genre:$g,n:1.5,s:\"t\",e:DRAMA,b:true,z:null){k}"),
    KeptSelectionCase(source: "{ a(f: {s: {_e: [{v: $s}]}}, l: []) }", rendered: "a(f:{s:{_e:[{v:$s}]}},l:[])"),
    KeptSelectionCase(source: "{ a @skip(if: $x) ...F @include(if: true) ... on T { b } ... @d { c } }",
                      rendered: "a@skip(if:$x) ...F@include(if:true) ...on T{b} ...@d{c}"),
])
func keepsSelectionsWhenAsked(_ testCase: KeptSelectionCase) throws {
    let kept = try GraphQLParser.parse(testCase.source, keepingSelections: true)
    #expect(render(kept.operations[0].selections) == testCase.rendered)
    let dropped = try GraphQLParser.parse(testCase.source)
    #expect(dropped.operations[0].selections.isEmpty)
}

@Test func keptFieldsKnowWhereTheyAre() throws {
    let document = try GraphQLParser.parse("query {\n  movie: getMovie { key }\n}\nfragment F on M { title }",
                                           keepingSelections: true)
    guard case .field(let field) = document.operations[0].selections.first else {
        Issue.record("no field kept")
        return
    }
    #expect(field.position == GraphQLSourcePosition(line: 2, column: 3))
    #expect(field.responseKey == "movie")
    #expect(render(document.fragments[0].selections) == "title")
}

@Test func constantDefaultsStayJSON() throws {
    let document = try GraphQLParser.parse("query ($g: G = DRAMA, $o: I = {a: [1]}) { a }", keepingSelections: true)
    #expect(document.operations[0].variables.map { $0.defaultValue?.serializedString } == [#""DRAMA""#, #"{"a":[1]}"#])
}
