import Testing
@testable import GatehouseCore

struct ClassifierCase: Sendable, CustomTestStringConvertible {
    var body: String
    var expected: GraphQLAuthErrorClass?
    var testDescription: String { String(body.prefix(100)) }
}

@Test(arguments: [
    ClassifierCase(body: #"{"errors":[{"message":"Unauthorized"}]}"#, expected: .unauthenticated(message: "Unauthorized")),
    ClassifierCase(body: #"{"errors":[{"message":"Unauthenticated"}],"data":null}"#,
                   expected: .unauthenticated(message: "Unauthenticated")),
    ClassifierCase(body: #" {"data" : null, "errors":[{"message":"Token expired","extensions":{"code":"UNAUTHENTICATED"}}]}"#,
                   expected: .unauthenticated(message: "Token expired")),
    ClassifierCase(body: #"{"errors":[{"message":"No access","extensions":{"code":"FORBIDDEN"}}]}"#,
                   expected: .forbidden(message: "No access")),
    ClassifierCase(body: #"{"errors":[{"message":"Bad field"},{"message":"x","extensions":{"code":"FORBIDDEN"}}]}"#,
                   expected: .forbidden(message: "x")),
    ClassifierCase(body: #"{"errors":[{"message":"Unauthorized","extensions":{"code":"FORBIDDEN"}}]}"#,
                   expected: .unauthenticated(message: "Unauthorized")),
    ClassifierCase(body: #"{"data":{"me":null},"errors":[{"message":"Unauthorized"}]}"#, expected: nil),
    ClassifierCase(body: #"{"errors":[{"message":"Unauthorized"}],"data":{"me":null}}"#, expected: nil),
    ClassifierCase(body: #"{"errors":[{"message":"Unauthorized"}],"data":[]}"#, expected: nil),
    ClassifierCase(body: #"{"errors":[{"message":"unauthorized"}]}"#, expected: nil),
    ClassifierCase(body: #"{"errors":[{"message":"Unauthorized access"}]}"#, expected: nil),
    ClassifierCase(body: #"{"errors":[{"message":"Nope","extensions":{"code":"INTERNAL"}}],"note":"FORBIDDEN"}"#, expected: nil),
    ClassifierCase(body: #"{"errors":{"message":"Unauthorized"}}"#, expected: nil),
    ClassifierCase(body: #"{"message":"Unauthorized"}"#, expected: nil),
    ClassifierCase(body: #"[{"errors":[{"message":"Unauthorized"}]}]"#, expected: nil),
    ClassifierCase(body: #"{"errors":[{"message":"Unauthorized"}]"#, expected: nil),
    ClassifierCase(body: "Unauthorized", expected: nil),
    ClassifierCase(body: "", expected: nil),
    ClassifierCase(body: #"{"errors":[{"message":"Unauthorized","extensions":{"padding":""#
                   + String(repeating: "x", count: 70_000) + #""}}]}"#, expected: nil),
])
func classifiesGraphQLAuthErrors(_ testCase: ClassifierCase) {
    #expect(GraphQLErrorClassifier.classify(Array(testCase.body.utf8)) == testCase.expected)
}
