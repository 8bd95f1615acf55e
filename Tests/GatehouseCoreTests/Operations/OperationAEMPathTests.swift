import GatehouseGraphQL
import Testing
@testable import GatehouseCore

struct AEMPathCase: Sendable, CustomTestStringConvertible {
    var name: String
    var variables: JSONObject?
    var expected: String
    var testDescription: String { expected }
}

@Test(arguments: [
    AEMPathCase(name: "adventures-all", variables: nil, expected: "/graphql/execute.json/wknd-shared/adventures-all"),
    AEMPathCase(name: "adventures-all", variables: [:], expected: "/graphql/execute.json/wknd-shared/adventures-all"),
    AEMPathCase(name: "by-slug", variables: ["slug": .string("bali-surf-camp")],
                expected: "/graphql/execute.json/wknd-shared/by-slug;slug=bali-surf-camp"),
    AEMPathCase(name: "q", variables: ["v": .string("a;b=c/d?e#f%g")],
                expected: "/graphql/execute.json/wknd-shared/q;v=a%3Bb%3Dc%2Fd%3Fe%23f%25g"),
    AEMPathCase(name: "q", variables: ["k;=/": .string("x")], expected: "/graphql/execute.json/wknd-shared/q;k%3B%3D%2F=x"),
    AEMPathCase(name: "q", variables: ["city": .string("Zürich 東京")],
                expected: "/graphql/execute.json/wknd-shared/q;city=Z%C3%BCrich%20%E6%9D%B1%E4%BA%AC"),
    AEMPathCase(name: "q", variables: ["v": .string("")], expected: "/graphql/execute.json/wknd-shared/q;v="),
    AEMPathCase(name: "q", variables: ["v": .string("a&b+c\"d\\e<f>g\u{1}h\u{7F}")],
                expected: "/graphql/execute.json/wknd-shared/q;v=a%26b%2Bc%22d%5Ce%3Cf%3Eg%01h%7F"),
    AEMPathCase(name: "q", variables: ["v": .string("keep-._~!$'()*,:@")],
                expected: "/graphql/execute.json/wknd-shared/q;v=keep-._~!$'()*,:@"),
    AEMPathCase(name: "q", variables: ["limit": .number("5"), "flag": .bool(true), "none": .null],
                expected: "/graphql/execute.json/wknd-shared/q;flag=true;limit=5;none=null"),
    AEMPathCase(name: "q", variables: ["o": .object(["a": .array([.number("1"), .string("x y")])])],
                expected: "/graphql/execute.json/wknd-shared/q;o=%7B%22a%22:%5B1,%22x%20y%22%5D%7D"),
    AEMPathCase(name: "q", variables: ["b": .string("2"), "B": .string("3"), "a": .string("1"), "é": .string("4")],
                expected: "/graphql/execute.json/wknd-shared/q;B=3;a=1;b=2;%C3%A9=4"),
    AEMPathCase(name: "q", variables: JSONObject([(key: "x", value: .string("old")), (key: "x", value: .string("new"))]),
                expected: "/graphql/execute.json/wknd-shared/q;x=new"),
    AEMPathCase(name: "a/b c", variables: nil, expected: "/graphql/execute.json/wknd-shared/a%2Fb%20c"),
])
func buildsCanonicalAEMPaths(_ testCase: AEMPathCase) {
    let path = AEMPersistedQueryPath.build(config: "wknd-shared", operationName: testCase.name, variables: testCase.variables)
    #expect(String(decoding: path, as: UTF8.self) == testCase.expected)
}
