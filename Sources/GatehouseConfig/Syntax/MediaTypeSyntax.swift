/// Media types as `server.compression.types` lists them: `type/subtype` (RFC 9110 §8.3.1), both
/// tokens, lowercase, without parameters or wildcards. Lowercase lets the gateway compare them
/// with a response's `Content-Type` after lowercasing only the response side; wildcards are
/// refused because `*/*` would also gzip images and archives that are compressed already.
enum MediaTypeSyntax {
    static func problem(in text: String) -> ValueProblem? {
        if text.contains(";") {
            return ValueProblem("\"\(text)\" has parameters; list the media type alone, e.g. text/html")
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ HTTPSyntax.isToken(String($0)) }) else {
            return ValueProblem("\"\(text)\" is not a media type such as application/json")
        }
        if parts.contains(where: { $0.contains("*") }) {
            return ValueProblem("\"\(text)\" is a wildcard; list each media type, e.g. text/plain")
        }
        let lowercased = text.lowercased()
        guard text == lowercased else {
            return ValueProblem("media types are listed in lowercase; write \"\(lowercased)\"")
        }
        return nil
    }
}
