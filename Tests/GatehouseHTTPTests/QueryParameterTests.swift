import Testing
@testable import GatehouseHTTP

/// Finding `token_from: query:NAME` in a query string and cutting it out of the forwarded URL.
@Suite struct QueryParameterTests {
    @Test(arguments: [
        ("access_token=abc", "abc", ""),
        ("a=1&access_token=abc", "abc", "a=1"),
        ("access_token=abc&a=1", "abc", "a=1"),
        ("a=1&access_token=abc&b=2", "abc", "a=1&b=2"),
        ("access_token=", "", ""),
        ("xaccess_token=1&access_token=abc", "abc", "xaccess_token=1"),
    ])
    func found(_ query: String, _ value: String, _ forwarded: String) throws {
        let text = bytes(query)
        let found = try #require(QueryParameter.find(bytes("access_token"), in: text, query: 0..<text.count))
        #expect(Array(text[found.value]) == bytes(value))
        #expect(found.queryRemoving(from: text, query: 0..<text.count) == bytes(forwarded))
    }

    @Test(arguments: ["", "a=1", "access_token", "access_tokens=1", "ACCESS_TOKEN=1"])
    func absent(_ query: String) {
        let text = bytes(query)
        #expect(QueryParameter.find(bytes("access_token"), in: text, query: 0..<text.count) == nil)
    }
}
