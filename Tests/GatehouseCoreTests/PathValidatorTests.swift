import Testing
@testable import GatehouseCore

/// SPEC §3.2: paths another hop could read differently are refused, never normalized.
struct PathValidatorTests {
    static let accepted = [
        "/", "/graphql", "/graphql/noauth", "/content/", "/content/a/b.json", "/a%20b", "/a;b=c", "/x.y",
        "/..a", "/a..", "/.well-known/x", "/a/...", "/%41", "/graphql/execute.json/wknd/q;slug=a%3Bb",
    ]

    static let refused = [
        "", "graphql", "/graphql/../x", "/graphql/..", "/./graphql", "/graphql/.", "//graphql", "/graphql//x",
        "/graphql\\x", "/graphql%2fx", "/graphql%2Fx", "/graphql%5cx", "/graphql/%2e%2e/x", "/graphql/%2E",
        "/a%00", "/a%0d%0a", "/a%", "/a%4", "/a%zz", "/a b", "/a\u{7f}", "/é", "/a#b", "/a\tb",
    ]

    @Test(arguments: accepted)
    func accepts(_ path: String) {
        #expect(Array(path.utf8).withUnsafeBytes { PathValidator.problem(in: $0) } == nil)
    }

    @Test(arguments: refused)
    func refuses(_ path: String) {
        #expect(Array(path.utf8).withUnsafeBytes { PathValidator.problem(in: $0) } != nil)
    }
}
