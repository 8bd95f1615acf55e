/// Route paths: `/graphql` (exact) or `/content/*` (prefix). A route must be reachable by a
/// request the gateway accepts, so the rules of request-path normalization (README, "How a request is handled") apply:
/// no `.` or `..` segments, no `//`, no `\`, no `%` (write the path decoded), no control bytes,
/// no query or fragment; `*` only as the final `/*`.
public enum RoutePathSyntax {
    public static func problem(in path: String) -> ValueProblem? {
        guard path.hasPrefix("/") else { return ValueProblem("must start with \"/\"") }
        let base = path.hasSuffix("/*") ? String(path.dropLast()) : path
        let bytes = Array(base.utf8)
        if bytes.contains(UInt8(ascii: "*")) {
            return ValueProblem("\"*\" is only allowed as a final \"/*\" (a prefix route)")
        }
        if bytes.contains(UInt8(ascii: "%")) {
            return ValueProblem("must not contain \"%\"; write the path decoded")
        }
        if bytes.contains(UInt8(ascii: "?")) || bytes.contains(UInt8(ascii: "#")) {
            return ValueProblem("must not contain a query string or fragment")
        }
        if bytes.contains(UInt8(ascii: "\\")) {
            return ValueProblem("must not contain \"\\\"")
        }
        if base.contains(text: "//") {
            return ValueProblem("must not contain \"//\"")
        }
        let segments = base.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: { $0 == "." || $0 == ".." }) {
            return ValueProblem("must not contain \".\" or \"..\" segments")
        }
        guard bytes.allSatisfy({ $0 == UInt8(ascii: "/") || HTTPSyntax.isPathCharacter($0) }) else {
            return ValueProblem("\"\(path)\" contains a character that cannot appear in a request path")
        }
        return nil
    }
}
