import Testing
@testable import GatehouseCore

/// Which POST bodies may be resent after they reached an upstream: GraphQL queries only.
struct RetrySafetyTests {
    @Test(arguments: [
        (#"{"query":"{ movies { id } }"}"#, true),
        (#"{"query":"query Q { movies { id } }","operationName":"Q"}"#, true),
        (#"{"query":"mutation M { rate(id: 1) }"}"#, false),
        (#"{"query":"query Q { a } mutation M { b }","operationName":"M"}"#, false),
        (#"{"query":"subscription S { ticks }"}"#, false),
        (#"{"query":"{ broken"}"#, false),
        ("not json", false),
    ])
    func classified(body: String, safe: Bool) {
        #expect(Array(body.utf8).withUnsafeBytes(Exchange.isGraphQLQuery) == safe)
    }
}
