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

/// Path parameters and escaped non-ASCII bytes: what servlet containers and lenient decoders
/// would read as dot segments is refused.
struct PathValidatorParameterTests {
    @Test(arguments: ["/public/..;/graphql", "/a/.;x/b", "/a/..;", "/a/%c0%ae%c0%ae/b", "/%e9", "/a%c3", "/a%c3b%a9"])
    func refuses(_ path: String) {
        #expect(Array(path.utf8).withUnsafeBytes { PathValidator.problem(in: $0) } != nil)
    }

    @Test(arguments: ["/caf%C3%A9", "/a;x/b", "/a/;x", "/a/b;v=1.2", "/%E2%82%AC"])
    func accepts(_ path: String) {
        #expect(Array(path.utf8).withUnsafeBytes { PathValidator.problem(in: $0) } == nil)
    }
}
