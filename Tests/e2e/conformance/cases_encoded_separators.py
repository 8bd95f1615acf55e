"""Encoded separators that public 403-bypass fuzzers send through a public prefix door to reach
a protected route behind it: a backend that decodes `%3b` before it strips `;` parameters,
decodes twice, or folds Unicode compatibility characters would resolve every refused row below
to /graphql (the API-key door). Each is a 400, the connection closes, and nothing reaches the
upstream. Legitimate escapes and `;` parameters still pass unchanged.

Doors: /public/* (prefix, public) in front of /graphql (exact, API key)."""

from .cases_paths import public
from .model import get, passes, post, refused

# MARK: - Percent-encoded semicolon

SEMICOLON = [
    refused("dotdot-encoded-semicolon-lower", get(b"/public/..%3b/graphql"),
            note="Tomcat-style parameter stripping after decoding makes `..%3b` the segment `..`."),
    refused("dotdot-encoded-semicolon-upper", get(b"/public/..%3B/graphql")),
    refused("dot-encoded-semicolon-lower", get(b"/public/.%3b/graphql")),
    refused("dot-encoded-semicolon-upper", get(b"/public/.%3B/graphql")),
    refused("encoded-dotdot-encoded-semicolon", get(b"/public/%2e%2e%3b/graphql")),
    refused("encoded-semicolon-first-segment", get(b"/..%3b/graphql")),
    refused("encoded-semicolon-middle-segment", get(b"/public/a/..%3B/b/graphql")),
    refused("encoded-semicolon-last-segment", get(b"/public/x/..%3b")),
    refused("encoded-semicolon-inside-name", get(b"/public/x%3bjsessionid=1")),
    refused("encoded-semicolon-in-parameter", get(b"/public/x;a=%3b"),
            note="Refused even inside a parameter: one rule, whichever decoder comes next."),
    refused("semicolon-then-encoded-semicolon", get(b"/public/..;%3b/graphql")),
    refused("encoded-semicolon-on-post", post(b"/public/..%3b/graphql", body=b"{}"), method="POST"),
]

# MARK: - Double encoding (an encoded `%`)

DOUBLE = [
    refused("double-encoded-dotdot-lower", get(b"/public/%252e%252e/graphql"),
            note="One decoding gives %2e%2e, a second one `..`."),
    refused("double-encoded-dotdot-upper", get(b"/public/%252E%252E/graphql")),
    refused("double-encoded-dot-mixed", get(b"/public/.%252e/graphql")),
    refused("double-encoded-hex-digits", get(b"/public/%25%32%65%25%32%65/graphql"),
            note="%25%32%65 is `%2e` after one decoding: the hex digits are encoded too."),
    refused("double-encoded-slash-lower", get(b"/public%252f..%252fgraphql")),
    refused("double-encoded-slash-upper", get(b"/public/a%252Fb")),
    refused("double-encoded-backslash", get(b"/public/..%255cgraphql")),
    refused("double-encoded-semicolon", get(b"/public/..%253b/graphql")),
    refused("triple-encoded-dotdot", get(b"/public/%25252e%25252e/graphql")),
    refused("double-encoded-first-segment", get(b"/%252e%252e/graphql")),
    refused("double-encoded-last-segment", get(b"/public/x/%252e%252e")),
    refused("encoded-percent-alone", get(b"/public/100%25")),
]

# MARK: - Unicode characters that fold into separators (escaped UTF-8)

FOLDING = [
    refused("fullwidth-dotdot-lower", get(b"/public/%ef%bc%8e%ef%bc%8e/graphql"),
            note="U+FF0E FULLWIDTH FULL STOP is `.` after NFKC normalization."),
    refused("fullwidth-dotdot-upper", get(b"/public/%EF%BC%8E%EF%BC%8E/graphql")),
    refused("fullwidth-dot-then-dot", get(b"/public/%ef%bc%8e./graphql")),
    refused("fullwidth-dotdot-encoded-semicolon", get(b"/public/%ef%bc%8e%ef%bc%8e%3b/graphql")),
    refused("fullwidth-dotdot-first-segment", get(b"/%ef%bc%8e%ef%bc%8e/graphql")),
    refused("fullwidth-dotdot-last-segment", get(b"/public/x/%ef%bc%8e%ef%bc%8e")),
    refused("fullwidth-solidus", get(b"/public/..%ef%bc%8fgraphql")),
    refused("fullwidth-reverse-solidus", get(b"/public/..%ef%bc%bcgraphql")),
    refused("small-full-stop", get(b"/public/%ef%b9%92%ef%b9%92/graphql")),
    refused("small-reverse-solidus", get(b"/public/..%ef%b9%a8graphql")),
    refused("one-dot-leader", get(b"/public/%e2%80%a4%e2%80%a4/graphql")),
    refused("two-dot-leader", get(b"/public/%e2%80%a5/graphql"),
            note="U+2025 TWO DOT LEADER is `..` after NFKC normalization: one character, a whole segment."),
    refused("horizontal-ellipsis", get(b"/public/%e2%80%a6/graphql")),
    refused("vertical-two-dot-leader", get(b"/public/%ef%b8%b0/graphql")),
    refused("care-of-contains-slash", get(b"/public/x%e2%84%85graphql"),
            note="U+2105 CARE OF is `c/o`: a slash appears inside the segment."),
    refused("digit-full-stop", get(b"/public/%e2%92%88")),
    refused("digit-zero-full-stop-astral", get(b"/public/%f0%9f%84%80")),
    refused("division-slash-lower", get(b"/public/..%e2%88%95graphql"),
            note="U+2215 DIVISION SLASH has no NFKC form, but best-fit code pages map it to `/`."),
    refused("division-slash-upper", get(b"/public/..%E2%88%95graphql")),
    refused("fraction-slash", get(b"/public/..%e2%81%84graphql")),
    refused("set-minus-backslash", get(b"/public/..%e2%88%96graphql")),
    refused("ideographic-full-stop", get(b"/public/%e3%80%82%e3%80%82/graphql")),
    refused("halfwidth-ideographic-full-stop", get(b"/public/%ef%bd%a1%ef%bd%a1/graphql")),
]

# MARK: - Still forwarded as sent

LEGITIMATE = [
    passes("escaped-space-in-name", get(b"/public/my%20file"), public("/public/my%20file")),
    passes("escaped-utf8-lower", get(b"/public/caf%c3%a9"), public("/public/caf%c3%a9")),
    passes("escaped-utf8-upper", get(b"/public/caf%C3%A9"), public("/public/caf%C3%A9")),
    passes("escaped-euro-sign", get(b"/public/%e2%82%ac"), public("/public/%e2%82%ac")),
    passes("escaped-emoji", get(b"/public/%f0%9f%98%80"), public("/public/%f0%9f%98%80")),
    passes("escaped-dot-plus-is-no-dot", get(b"/public/%e2%88%94"), public("/public/%e2%88%94")),
    passes("jsessionid-parameter", get(b"/public/name;jsessionid=x"), public("/public/name;jsessionid=x")),
    passes("jsessionid-parameter-middle", get(b"/public/a;jsessionid=x/b"), public("/public/a;jsessionid=x/b")),
    passes("encoded-separators-in-query-untouched", get(b"/public/x?p=%252e%252e%3b%ef%bc%8e"),
           public("/public/x?p=%252e%252e%3b%ef%bc%8e"),
           note="The query string takes no part in routing and is forwarded unchanged."),
]

CASES = SEMICOLON + DOUBLE + FOLDING + LEGITIMATE
