import GatehouseGraphQL
import Testing
@testable import GatehouseDemo

/// The executor, one request per row: the document, its variables, who is signed in, and the
/// exact response — only the fields asked for, in the order asked.
@Suite struct DemoExecutorTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var query: String
        var variables = "{}"
        var operationName: String? = nil
        var userID: String? = nil
        var expected: String
        var testDescription: String { String(query.prefix(90)) }
    }

    static let selections: [Row] = [
        Row(query: "{ appsetting { cdnUrl } }", expected: #"{"data":{"appsetting":{"cdnUrl":"https://cdn.example.com/"}}}"#),
        Row(query: "{ appsetting { minVersion cdnUrl } }",
            expected: #"{"data":{"appsetting":{"minVersion":"1.0.0","cdnUrl":"https://cdn.example.com/"}}}"#),
        Row(query: #"{ getMovieByKey(key: "m4") { title } }"#,
            expected: #"{"data":{"getMovieByKey":{"title":"Groundhog Day"}}}"#),
        Row(query: #"{ m: getMovieByKey(key: "m4") { name: title, key, when: year } }"#,
            expected: #"{"data":{"m":{"name":"Groundhog Day","key":"m4","when":1993}}}"#),
        Row(query: #"{ a: getMovieByKey(key: "m1") { key } b: getMovieByKey(key: "m2") { key } }"#,
            expected: #"{"data":{"a":{"key":"m1"},"b":{"key":"m2"}}}"#),
        Row(query: "{ __typename appsetting { __typename } }",
            expected: #"{"data":{"__typename":"Query","appsetting":{"__typename":"AppSetting"}}}"#),
        Row(query: #"{ listMoviesByGenre(genre: "scifi") { key rating } }"#,
            expected: #"{"data":{"listMoviesByGenre":[{"key":"m6","rating":7.9},{"key":"m7","rating":8.0}]}}"#),
        Row(query: #"{ listMoviesByGenre(genre: "DRAMA", limit: 1) { title } }"#,
            expected: #"{"data":{"listMoviesByGenre":[{"title":"The Shawshank Redemption"}]}}"#),
        Row(query: #"{ listMoviesByGenre(genre: "western") { key } }"#, expected: #"{"data":{"listMoviesByGenre":[]}}"#),
        Row(query: "{ adventureList { items { slug } } }",
            expected: #"{"data":{"adventureList":{"items":[{"slug":"bali-surf-camp"},{"slug":"climbing-new-zealand"},{"slug":"cycling-tuscany"},{"slug":"ski-touring-mont-blanc"}]}}}"#),
        Row(query: #"{ adventureList(filter: {slug: {_expressions: [{value: "cycling-tuscany"}]}}) { items { title price } } }"#,
            expected: #"{"data":{"adventureList":{"items":[{"title":"Cycling Tuscany","price":4500}]}}}"#),
        Row(query: "{ me { id __typename } }", userID: "alice", expected: #"{"data":{"me":{"id":"alice","__typename":"User"}}}"#),
        Row(query: #"{ getMovieByKey(key: "nope") { key } }"#, expected: #"{"data":{"getMovieByKey":null}}"#),
        Row(query: #"{ getMovieByKey(key: 3) { key } }"#, expected: #"{"data":{"getMovieByKey":null}}"#),
        // The enum value the schema does not list, for clients' unknown-value case.
        Row(query: #"{ getMovieByKey(key: "m7") { aspectRatio } }"#,
            expected: #"{"data":{"getMovieByKey":{"aspectRatio":"IMAX_EXPANDED"}}}"#),
        Row(query: #"{ getMovieByKey(key: "m6") { aspectRatio } }"#,
            expected: #"{"data":{"getMovieByKey":{"aspectRatio":"WIDESCREEN"}}}"#),
    ]

    static let fragmentsAndVariables: [Row] = [
        Row(query: "query ($k: ID!) { getMovieByKey(key: $k) { ...Basics } } fragment Basics on Movie { key title }",
            variables: #"{"k":"m3"}"#, expected: #"{"data":{"getMovieByKey":{"key":"m3","title":"Whiplash"}}}"#),
        Row(query: "{ getMovieByKey(key: \"m3\") { ...A year } } fragment A on Movie { ...B key } fragment B on Node { id }",
            expected: #"{"data":{"getMovieByKey":{"id":"m3","key":"m3","year":2014}}}"#),
        Row(query: "{ getMovieByKey(key: \"m3\") { key ... on Movie { title } ... { year } } }",
            expected: #"{"data":{"getMovieByKey":{"key":"m3","title":"Whiplash","year":2014}}}"#),
        Row(query: "{ getMovieByKey(key: \"m3\") { key title key } }",
            expected: #"{"data":{"getMovieByKey":{"key":"m3","title":"Whiplash"}}}"#),
        Row(query: #"{ search(text: "ou") { __typename ... on Movie { key } ... on AdventureModel { slug } } }"#,
            expected: #"{"data":{"search":[{"__typename":"Movie","key":"m4"},{"__typename":"AdventureModel","slug":"ski-touring-mont-blanc"}]}}"#),
        Row(query: #"{ search(text: "ou") { ... on Node { id } } }"#,
            expected: #"{"data":{"search":[{"id":"m4"},{}]}}"#),
        Row(query: "query ($g: String!, $n: Int = 1) { listMoviesByGenre(genre: $g, limit: $n) { key } }",
            variables: #"{"g":"comedy"}"#, expected: #"{"data":{"listMoviesByGenre":[{"key":"m4"}]}}"#),
        Row(query: "query ($g: String!, $n: Int = 1) { listMoviesByGenre(genre: $g, limit: $n) { key } }",
            variables: #"{"g":"comedy","n":5}"#, expected: #"{"data":{"listMoviesByGenre":[{"key":"m4"},{"key":"m5"}]}}"#),
        Row(query: "query ($n: Int) { listMoviesByGenre(genre: \"comedy\", limit: $n) { key } }",
            expected: #"{"data":{"listMoviesByGenre":[{"key":"m4"},{"key":"m5"}]}}"#),
        Row(query: "query ($s: String) { adventureList(filter: {slug: {_expressions: [{value: $s}]}}) { items { slug } } }",
            variables: #"{"s":"bali-surf-camp"}"#,
            expected: #"{"data":{"adventureList":{"items":[{"slug":"bali-surf-camp"}]}}}"#),
        Row(query: "query ($full: Boolean!) { getMovieByKey(key: \"m1\") { key title @include(if: $full) year @skip(if: $full) } }",
            variables: #"{"full":false}"#, expected: #"{"data":{"getMovieByKey":{"key":"m1","year":1994}}}"#),
        Row(query: "query ($full: Boolean!) { getMovieByKey(key: \"m1\") { key ...F @include(if: $full) } } fragment F on Movie { title }",
            variables: #"{"full":true}"#, expected: #"{"data":{"getMovieByKey":{"key":"m1","title":"The Shawshank Redemption"}}}"#),
        Row(query: "query a { me { id } } query b { appsetting { minVersion } }", operationName: "b",
            expected: #"{"data":{"appsetting":{"minVersion":"1.0.0"}}}"#),
        Row(query: "mutation ($t: String!, $g: String!) { createMovie(title: $t, genre: $g, aspectRatio: WIDESCREEN) { key aspectRatio rating } }",
            variables: #"{"t":"Dune","g":"scifi"}"#,
            expected: #"{"data":{"createMovie":{"key":"m8","aspectRatio":"WIDESCREEN","rating":null}}}"#),
        Row(query: "mutation { __typename }", expected: #"{"data":{"__typename":"Mutation"}}"#),
    ]

    static let errors: [Row] = [
        Row(query: "{ me { id } }",
            expected: #"{"errors":[{"message":"Unauthorized","locations":[{"line":1,"column":3}],"path":["me"],"extensions":{"code":"UNAUTHENTICATED"}}],"data":null}"#),
        Row(query: "{ appsetting { cdnUrl } me { id } }",
            expected: #"{"errors":[{"message":"Unauthorized","locations":[{"line":1,"column":25}],"path":["me"],"extensions":{"code":"UNAUTHENTICATED"}}],"data":null}"#),
        Row(query: "{ getMovieByKey { key } }",
            expected: #"{"errors":[{"message":"Argument \"key\" of required type \"ID!\" was not provided.","locations":[{"line":1,"column":3}],"path":["getMovieByKey"],"extensions":{"code":"BAD_USER_INPUT"}}],"data":{"getMovieByKey":null}}"#),
        Row(query: #"mutation { createUserToken(email: "a@b.c", password: "") { token } }"#,
            expected: #"{"errors":[{"message":"Invalid email or password","locations":[{"line":1,"column":12}],"path":["createUserToken"],"extensions":{"code":"BAD_USER_INPUT"}}],"data":null}"#),
        Row(query: "{ hello }",
            expected: #"{"errors":[{"message":"Cannot query field \"hello\" on type \"Query\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: "mutation { deleteEverything }",
            expected: #"{"errors":[{"message":"Cannot query field \"deleteEverything\" on type \"Mutation\".","locations":[{"line":1,"column":12}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: "{ appsetting { cdnUrl secret } }",
            expected: #"{"errors":[{"message":"Cannot query field \"secret\" on type \"AppSetting\".","locations":[{"line":1,"column":23}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: "{ appsetting }",
            expected: #"{"errors":[{"message":"Field \"appsetting\" of type \"AppSetting!\" must have a selection of subfields.","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: "{ appsetting { cdnUrl { x } } }",
            expected: #"{"errors":[{"message":"Field \"cdnUrl\" must not have a selection since type \"String!\" has no subfields.","locations":[{"line":1,"column":16}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: #"{ getMovieByKey(id: "m1") { key } }"#,
            expected: #"{"errors":[{"message":"Unknown argument \"id\" on field \"Query.getMovieByKey\".","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: "{ appsetting { ...Missing } }",
            expected: #"{"errors":[{"message":"Unknown fragment \"Missing\".","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: "{ appsetting { ...F } } fragment F on Movie { key }",
            expected: #"{"errors":[{"message":"Fragment cannot be spread here as objects of type \"AppSetting\" can never be of type \"Movie\".","locations":[{"line":1,"column":25}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: "{ appsetting { ...F } } fragment F on AppSetting { ...F }",
            expected: #"{"errors":[{"message":"Cannot spread fragment \"F\" within itself.","locations":[{"line":1,"column":25}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: "{ getMovieByKey(key: $k) { key } }",
            expected: #"{"errors":[{"message":"Variable \"$k\" is not defined.","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: "query ($k: ID!) { getMovieByKey(key: $k) { key } }",
            expected: #"{"errors":[{"message":"Variable \"$k\" of required type \"ID!\" was not provided.","extensions":{"code":"BAD_USER_INPUT"}}]}"#),
        Row(query: "query ($k: ID!) { getMovieByKey(key: $k) { key } }", variables: #"{"k":null}"#,
            expected: #"{"errors":[{"message":"Variable \"$k\" of non-null type \"ID!\" must not be null.","extensions":{"code":"BAD_USER_INPUT"}}]}"#),
        Row(query: "{ oops( }",
            expected: #"{"errors":[{"message":"Syntax Error: Expected Name, found \"}\".","locations":[{"line":1,"column":9}],"extensions":{"code":"GRAPHQL_PARSE_FAILED"}}]}"#),
        Row(query: "query a { me { id } } query b { me { id } }",
            expected: #"{"errors":[{"message":"Must provide operation name if query contains multiple operations.","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: "{ me { id } }", operationName: "other",
            expected: #"{"errors":[{"message":"Unknown operation named \"other\".","extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
        Row(query: "subscription { me { id } }",
            expected: #"{"errors":[{"message":"The demo backend does not support subscriptions.","locations":[{"line":1,"column":1}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#),
    ]

    @Test(arguments: selections + fragmentsAndVariables + errors)
    func executes(_ row: Row) throws {
        let variables = try #require(try JSONReader.parse(row.variables).objectValue)
        let response = DemoTestSupport.executor().execute(query: row.query, operationName: row.operationName,
                                                          variables: variables,
                                                          context: DemoRootResolvers.Context(userID: row.userID))
        #expect(response.serializedString == row.expected)
    }

    @Test func createdMoviesAreListedAfterwards() throws {
        let executor = DemoTestSupport.executor()
        let create = executor.execute(query: #"mutation { createMovie(title: "Dune", genre: "Epic", year: 2021) { key } }"#,
                                      operationName: nil, variables: JSONObject(), context: .init())
        #expect(create.serializedString == #"{"data":{"createMovie":{"key":"m8"}}}"#)
        let listed = executor.execute(query: #"{ listMoviesByGenre(genre: "epic") { key title year } }"#,
                                      operationName: nil, variables: JSONObject(), context: .init())
        #expect(listed.serializedString == #"{"data":{"listMoviesByGenre":[{"key":"m8","title":"Dune","year":2021}]}}"#)
    }
}
