import Testing
@testable import GatehouseGraphQL

// MARK: - POST bodies

struct RequestBodyCase: Sendable, CustomTestStringConvertible {
    var body: String
    var expected: Result<GraphQLRequestBody, GraphQLRequestError>
    var testDescription: String { body }
}

private let hash = String(repeating: "ab", count: 32)

@Test(arguments: [
    RequestBodyCase(body: #"{"query":"{ a }"}"#, expected: .success(GraphQLRequestBody(query: "{ a }"))),
    RequestBodyCase(body: #"{"query":"{ a }","operationName":null,"variables":null,"extensions":null}"#,
                    expected: .success(GraphQLRequestBody(query: "{ a }"))),
    RequestBodyCase(body: #"{"operationName":"movies","variables":{"limit":5,"genre":"ACTION"}}"#,
                    expected: .success(GraphQLRequestBody(operationName: "movies",
                                                          variables: ["limit": .number("5"), "genre": .string("ACTION")]))),
    RequestBodyCase(body: #"{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"\#(hash)"}}}"#,
                    expected: .success(GraphQLRequestBody(
                        extensions: ["persistedQuery": .object(["version": .number("1"), "sha256Hash": .string(hash)])],
                        persistedQuery: PersistedQueryReference(sha256Hash: hash)))),
    RequestBodyCase(body: "", expected: .failure(GraphQLRequestError("Request body is not valid JSON"))),
    RequestBodyCase(body: #"{"query":"{ a }""#, expected: .failure(GraphQLRequestError(
        "Request body is not valid JSON"))),
    RequestBodyCase(body: #"[{"query":"{ a }"}]"#,
                    expected: .failure(GraphQLRequestError(
                        "Request body is not valid GraphQL JSON: expected an object"))),
    RequestBodyCase(body: #"{"query":1}"#,
                    expected: .failure(GraphQLRequestError(
                        "Request body is not valid GraphQL JSON: \"query\" must be a string"))),
    RequestBodyCase(body: #"{"operationName":[]}"#,
                    expected: .failure(GraphQLRequestError(
                        "Request body is not valid GraphQL JSON: \"operationName\" must be a string or null"))),
    RequestBodyCase(body: #"{"variables":"{}"}"#,
                    expected: .failure(GraphQLRequestError(
                        "Request body is not valid GraphQL JSON: \"variables\" must be an object or null"))),
    RequestBodyCase(body: #"{"extensions":[]}"#,
                    expected: .failure(GraphQLRequestError(
                        "Request body is not valid GraphQL JSON: \"extensions\" must be an object or null"))),
    RequestBodyCase(body: #"{"extensions":{"persistedQuery":"x"}}"#,
                    expected: .failure(GraphQLRequestError("\"extensions.persistedQuery\" must be an object"))),
    RequestBodyCase(body: #"{"extensions":{"persistedQuery":{"version":1}}}"#,
                    expected: .failure(GraphQLRequestError(
                        "\"extensions.persistedQuery.sha256Hash\" must be a string"))),
    RequestBodyCase(body: #"{"extensions":{"persistedQuery":{"version":2,"sha256Hash":"x"}}}"#,
                    expected: .failure(GraphQLRequestError("Unsupported persisted query version"))),
    // A key named twice, at any depth: which copy counts is up to the reader.
    RequestBodyCase(body: #"{"query":"query a { a }","query":"query b { b }"}"#,
                    expected: .failure(GraphQLRequestError(
                        "Request body is not valid GraphQL JSON: an object names the same key twice"))),
    RequestBodyCase(body: #"{"query":"{ a }","variables":{"n":1,"n":2}}"#,
                    expected: .failure(GraphQLRequestError(
                        "Request body is not valid GraphQL JSON: an object names the same key twice"))),
])
func decodesRequestBodies(_ testCase: RequestBodyCase) {
    let result = Array(testCase.body.utf8).withUnsafeBytes { GraphQLRequestBody.parse($0) }
    #expect(result == testCase.expected)
}

// MARK: - GET query strings

struct GetRequestCase: Sendable, CustomTestStringConvertible {
    var query: String
    var expected: Result<GraphQLGetRequest, GraphQLRequestError>
    var testDescription: String { query }
}

@Test(arguments: [
    GetRequestCase(query: "", expected: .success(GraphQLGetRequest())),
    GetRequestCase(query: "query=%7B%20a%20%7D&operationName=Q",
                   expected: .success(GraphQLGetRequest(query: "{ a }", operationName: "Q"))),
    GetRequestCase(query: "query={+a+}", expected: .success(GraphQLGetRequest(query: "{ a }"))),
    GetRequestCase(query: "variables=%7B%22n%22%3A1%7D", expected: .success(GraphQLGetRequest(variables: ["n": .number("1")]))),
    GetRequestCase(query: "variables=&extensions=null", expected: .success(GraphQLGetRequest())),
    GetRequestCase(query: "variables=%7B%22n%22%3A1%2C%22n%22%3A2%7D", expected: .failure(GraphQLRequestError(
        "Query parameter \"variables\" must be a JSON object"))),
    GetRequestCase(query: "extensions=%7B%22persistedQuery%22%3A%7B%22version%22%3A1%2C%22sha256Hash%22%3A%22abc%22%7D%7D",
                   expected: .success(GraphQLGetRequest(
                       extensions: ["persistedQuery": .object(["version": .number("1"), "sha256Hash": .string("abc")])],
                       persistedQuery: PersistedQueryReference(sha256Hash: "abc")))),
    GetRequestCase(query: "genre=A&limit=5&genre=B&&flag&caf%C3%A9=cr%C3%A8me",
                   expected: .success(GraphQLGetRequest(parameters: [
                       .init(name: "genre", values: ["A", "B"]), .init(name: "limit", values: ["5"]),
                       .init(name: "flag", values: [""]), .init(name: "café", values: ["crème"]),
                   ]))),
    GetRequestCase(query: "a=%2B%26%3D", expected: .success(GraphQLGetRequest(parameters: [.init(name: "a", values: ["+&="])]))),
    GetRequestCase(query: "a=%zz", expected: .failure(GraphQLRequestError(
        "Query string is not valid: bad percent-escape or UTF-8"))),
    GetRequestCase(query: "a=%4", expected: .failure(GraphQLRequestError(
        "Query string is not valid: bad percent-escape or UTF-8"))),
    GetRequestCase(query: "a=%FF", expected: .failure(GraphQLRequestError(
        "Query string is not valid: bad percent-escape or UTF-8"))),
    GetRequestCase(query: "query=a&query=b", expected: .failure(GraphQLRequestError(
        "Query parameter \"query\" is given more than once"))),
    GetRequestCase(query: "variables=[1]", expected: .failure(GraphQLRequestError(
        "Query parameter \"variables\" must be a JSON object"))),
    GetRequestCase(query: "extensions={", expected: .failure(GraphQLRequestError(
        "Query parameter \"extensions\" must be a JSON object"))),
])
func decodesGetQueryStrings(_ testCase: GetRequestCase) {
    #expect(GraphQLGetRequest.parse(query: testCase.query) == testCase.expected)
}

// MARK: - GET variable typing

private let movieVariables = [
    VariableDefinition(name: "genre", type: .nonNull(.named("Genre"))),
    VariableDefinition(name: "genres", type: .list(.nonNull(.named("Genre")))),
    VariableDefinition(name: "limit", type: .named("Int"), defaultValue: .number("10")),
    VariableDefinition(name: "ratio", type: .named("Float")),
    VariableDefinition(name: "adult", type: .named("Boolean")),
    VariableDefinition(name: "title", type: .named("String")),
    VariableDefinition(name: "id", type: .named("ID")),
    VariableDefinition(name: "since", type: .named("DateTime")),
    VariableDefinition(name: "matrix", type: .list(.list(.named("Int")))),
]

struct TypingCase: Sendable, CustomTestStringConvertible {
    var query: String
    /// The typed variables as compact JSON, or the error message.
    var expected: String
    var testDescription: String { query }
}

@Test(arguments: [
    TypingCase(query: "genre=ACTION", expected: #"{"genre":"ACTION"}"#),
    TypingCase(query: "genre=ACTION&limit=5", expected: #"{"genre":"ACTION","limit":5}"#),
    TypingCase(query: "limit=-2147483648&genre=A", expected: #"{"genre":"A","limit":-2147483648}"#),
    TypingCase(query: "genre=A&limit=2147483648", expected: "Variable \"$limit\" must be an Int"),
    TypingCase(query: "genre=A&limit=05", expected: "Variable \"$limit\" must be an Int"),
    TypingCase(query: "genre=A&limit=1.0", expected: "Variable \"$limit\" must be an Int"),
    TypingCase(query: "genre=A&limit=%2B1", expected: "Variable \"$limit\" must be an Int"),
    TypingCase(query: "genre=A&limit=", expected: "Variable \"$limit\" must be an Int"),
    TypingCase(query: "genre=A&ratio=1.5e3", expected: #"{"genre":"A","ratio":1.5e3}"#),
    TypingCase(query: "genre=A&ratio=-0.25", expected: #"{"genre":"A","ratio":-0.25}"#),
    TypingCase(query: "genre=A&ratio=1e999", expected: "Variable \"$ratio\" must be a Float"),
    TypingCase(query: "genre=A&ratio=.5", expected: "Variable \"$ratio\" must be a Float"),
    TypingCase(query: "genre=A&ratio=NaN", expected: "Variable \"$ratio\" must be a Float"),
    TypingCase(query: "genre=A&adult=true", expected: #"{"genre":"A","adult":true}"#),
    TypingCase(query: "genre=A&adult=false", expected: #"{"genre":"A","adult":false}"#),
    TypingCase(query: "genre=A&adult=1", expected: "Variable \"$adult\" must be a Boolean"),
    TypingCase(query: "genre=A&title=Die+Hard+%22II%22", expected: #"{"genre":"A","title":"Die Hard \"II\""}"#),
    TypingCase(query: "genre=A&title=", expected: #"{"genre":"A","title":""}"#),
    TypingCase(query: "genre=A&id=0042", expected: #"{"genre":"A","id":"0042"}"#),
    TypingCase(query: "genre=A&since=2024-01-01T00:00:00Z", expected: #"{"genre":"A","since":"2024-01-01T00:00:00Z"}"#),
    TypingCase(query: "genre=A&genres=DRAMA&genres=COMEDY", expected: #"{"genre":"A","genres":["DRAMA","COMEDY"]}"#),
    TypingCase(query: "genre=A&genres=DRAMA", expected: #"{"genre":"A","genres":["DRAMA"]}"#),
    TypingCase(query: "genre=A&genre=B", expected: "Variable \"$genre\" is given more than once"),
    TypingCase(query: "limit=5", expected: "Variable \"$genre\" of required type \"Genre!\" was not provided"),
    TypingCase(query: "genre=A&colour=red&size=1", expected: "Unknown variables \"colour\", \"size\" for operation \"movies\""),
    TypingCase(query: "genre=A&variables=%7B%22x%22%3A1%7D", expected: "Unknown variable \"x\" for operation \"movies\""),
    TypingCase(query: "variables=%7B%22genre%22%3A%22A%22%2C%22limit%22%3A3%7D", expected: #"{"genre":"A","limit":3}"#),
    TypingCase(query: "limit=7&variables=%7B%22genre%22%3A%22A%22%2C%22limit%22%3A3%7D", expected: #"{"genre":"A","limit":7}"#),
    TypingCase(query: "genre=A&matrix=1", expected: "Variable \"$matrix\" is a nested list; send it in the \"variables\" parameter"),
    TypingCase(query: "genre=A&variables=%7B%22matrix%22%3A%5B%5B1%5D%5D%7D", expected: #"{"genre":"A","matrix":[[1]]}"#),
])
func typesGetVariables(_ testCase: TypingCase) throws {
    let request = try GraphQLGetRequest.parse(query: testCase.query).get()
    let result = GraphQLVariableCoercion.variables(parameters: request.parameters, json: request.variables,
                                                   definitions: movieVariables, operationName: "movies")
    switch result {
    case .success(let variables): #expect(JSONValue.object(variables).serializedString == testCase.expected)
    case .failure(let error):
        #expect(error.message == testCase.expected)
    }
}

@Test func listsOfIntsAreTypedElementByElement() {
    let definitions = [VariableDefinition(name: "ids", type: .nonNull(.list(.nonNull(.named("Int")))))]
    let good = GraphQLVariableCoercion.variables(parameters: [.init(name: "ids", values: ["1", "2"])], json: nil,
                                                 definitions: definitions, operationName: "q")
    #expect(good == .success(["ids": .array([.number("1"), .number("2")])]))
    let bad = GraphQLVariableCoercion.variables(parameters: [.init(name: "ids", values: ["1", "x"])], json: nil,
                                                definitions: definitions, operationName: "q")
    #expect(bad == .failure(GraphQLRequestError("Variable \"$ids\" must be a list of Int values")))
}
