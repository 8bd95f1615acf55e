import Testing
@testable import GatehouseGraphQL

/// `GraphQLSameDocument`: the same tokens in the same order, ignored tokens aside.
struct SameDocumentCase: Sendable, CustomTestStringConvertible {
    var left: String
    var right: String
    var same: Bool
    var testDescription: String { "\(left) | \(right)" }
}

private let stored = "query appsetting { appsetting { cdnUrl minVersion } }"

@Test(arguments: [
    SameDocumentCase(left: stored, right: stored, same: true),
    // White space, line breaks, commas and comments are ignored tokens.
    SameDocumentCase(left: stored, right: "query appsetting{appsetting{cdnUrl,minVersion}}", same: true),
    SameDocumentCase(left: stored, right: "# bootstrap\nquery appsetting {\n  appsetting {\n    cdnUrl\n    minVersion\n  }\n}\n",
                     same: true),
    SameDocumentCase(left: #"{ a(s: "A") }"#, right: #"{ a(s: "\u0041") }"#, same: true),
    // Anything else is another document.
    SameDocumentCase(left: stored, right: "query appsetting { appsetting { cdnUrl } }", same: false),
    SameDocumentCase(left: stored, right: "query appsetting { appsetting { minVersion cdnUrl } }", same: false),
    SameDocumentCase(left: stored, right: "mutation appsetting { appsetting { cdnUrl minVersion } }", same: false),
    SameDocumentCase(left: stored, right: stored + " query other { x }", same: false),
    SameDocumentCase(left: stored, right: "query appsetting { appsetting { cdnUrl minversion } }", same: false),
    SameDocumentCase(left: #"{ a(s: "x") }"#, right: #"{ a(s: """x""") }"#, same: false),
    SameDocumentCase(left: "{ a(n: 1) }", right: "{ a(n: 1.0) }", same: false),
    SameDocumentCase(left: "", right: "", same: true),
    // Text that is not GraphQL tokens is never the same document, not even as itself.
    SameDocumentCase(left: "{ a(s: \"open }", right: "{ a(s: \"open }", same: false),
])
func comparesDocuments(_ testCase: SameDocumentCase) {
    let left = Array(testCase.left.utf8), right = Array(testCase.right.utf8)
    #expect(GraphQLSameDocument.compare(left, right) == testCase.same)
    #expect(GraphQLSameDocument.compare(right, left) == testCase.same)
}
