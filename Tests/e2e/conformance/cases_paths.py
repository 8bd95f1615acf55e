"""Path normalization bypasses of the public door (README, "How a request is handled"): routing happens on the bytes
that are forwarded, so anything another hop could read as a different path is refused.

Doors: /graphql/noauth (exact, public), /graphql (exact, API key), /public/* (prefix, public),
/api/* (prefix, API key)."""

from .model import HOST, KEY, Case, Forwarded, answered, get, passes, refused


def public(target: str) -> Forwarded:
    return Forwarded(method="GET", target=target)


# MARK: - Dot segments and their encodings

DOTS = [
    refused("dotdot-out-of-public-door", get(b"/graphql/noauth/../x")),
    refused("dotdot-to-authenticated-door", get(b"/public/../graphql")),
    refused("dotdot-to-authenticated-prefix", get(b"/public/../api/x")),
    refused("dotdot-at-end", get(b"/graphql/noauth/..")),
    refused("dotdot-twice", get(b"/public/a/../../graphql")),
    refused("dot-segment", get(b"/public/./x")),
    refused("dot-at-end", get(b"/graphql/noauth/.")),
    refused("dot-at-start", get(b"/./graphql/noauth")),
    refused("encoded-dotdot-lower", get(b"/public/%2e%2e/graphql")),
    refused("encoded-dotdot-upper", get(b"/public/%2E%2E/graphql")),
    refused("encoded-dotdot-mixed", get(b"/public/.%2e/graphql")),
    refused("encoded-dotdot-mixed-other", get(b"/public/%2e./graphql")),
    refused("encoded-dot", get(b"/public/%2e/x")),
    refused("encoded-dot-inside-name", get(b"/public/a%2ejson"),
            note="Every encoded dot is refused, not only whole dot segments: a hop that decodes "
                 "once and normalizes again must never find a segment the gateway did not."),
    refused("dotdot-semicolon", get(b"/public/..;/graphql"),
            note="Tomcat and Spring read `..;x` as `..` with a path parameter, so the backend "
                 "would serve /graphql to a public-door request."),
    refused("dot-semicolon", get(b"/public/.;x/y")),
    refused("dotdot-semicolon-parameter", get(b"/public/..;jsessionid=1/api/x")),
    refused("encoded-dotdot-semicolon", get(b"/public/%2e%2e;/graphql")),
    refused("overlong-utf8-dot", get(b"/public/%c0%ae%c0%ae/graphql"),
            note="An overlong UTF-8 encoding of `.`; decoders that accept it (old IIS, some Java "
                 "stacks) see `..`."),
    passes("three-dots-is-a-name", get(b"/public/..."), public("/public/...")),
    passes("dot-prefixed-name", get(b"/public/.well-known"), public("/public/.well-known")),
    passes("dotdot-prefixed-name", get(b"/public/..x"), public("/public/..x")),
]

# MARK: - Slashes, backslashes, escapes

SLASHES = [
    refused("double-slash-start", get(b"//graphql/noauth")),
    refused("double-slash-inside", get(b"/graphql//noauth")),
    refused("double-slash-public-prefix", get(b"/public//api/x")),
    refused("encoded-slash-lower", get(b"/public%2f..%2fgraphql")),
    refused("encoded-slash-upper", get(b"/graphql%2Fnoauth")),
    refused("encoded-slash-in-segment", get(b"/public/a%2fb")),
    refused("backslash", get(b"/public\\..\\graphql")),
    refused("backslash-leading", get(b"\\graphql\\noauth")),
    refused("encoded-backslash", get(b"/public/..%5cgraphql")),
    refused("encoded-nul", get(b"/graphql/noauth%00")),
    refused("encoded-newline", get(b"/graphql/noauth%0d%0aX-Injected:%201")),
    refused("encoded-del", get(b"/public/%7f")),
    refused("invalid-escape", get(b"/public/%zz")),
    refused("truncated-escape", get(b"/public/%2")),
    refused("percent-at-end", get(b"/public/%")),
    passes("encoded-space", get(b"/public/a%20b"), public("/public/a%20b")),
    passes("encoded-letters-forwarded-as-sent", get(b"/public/%61"), public("/public/%61")),
    passes("trailing-slash-on-prefix", get(b"/public/x/"), public("/public/x/")),
]

# MARK: - Case, parameters and route boundaries

MATCHING = [
    answered("uppercase-door", get(b"/GRAPHQL/NOAUTH"), 404, "NOT_FOUND"),
    answered("capitalized-door", get(b"/Graphql/noauth"), 404, "NOT_FOUND"),
    answered("trailing-slash-on-exact-door", get(b"/graphql/noauth/"), 404, "NOT_FOUND"),
    answered("extension-on-exact-door", get(b"/graphql/noauth.json"), 404, "NOT_FOUND"),
    answered("semicolon-on-exact-door", get(b"/graphql/noauth;x=1"), 404, "NOT_FOUND"),
    answered("semicolon-on-authenticated-door", get(b"/graphql;noauth"), 404, "NOT_FOUND"),
    answered("prefix-without-separator", get(b"/publicx"), 404, "NOT_FOUND"),
    answered("encoded-door-name", get(b"/graphql/no%61uth"), 404, "NOT_FOUND",
             note="Matching is on the bytes as sent; /graphql/no%61uth is not the public door "
                  "and no route decodes it into one."),
    answered("authenticated-door-without-key", get(b"/graphql"), 401, "UNAUTHENTICATED"),
    answered("authenticated-prefix-without-key", get(b"/api/x"), 401, "UNAUTHENTICATED"),
    answered("authenticated-door-wrong-key", get(b"/graphql", HOST + b"X-Api-Key: k-124\r\n"), 401,
             "UNAUTHENTICATED"),
    answered("authenticated-door-bad-key-then-good-key",
             get(b"/graphql", HOST + b"X-Api-Key: wrong\r\n" + KEY), 401, "UNAUTHENTICATED",
             note="The first X-Api-Key is the credential; a second one never rescues a bad first."),
    passes("semicolon-parameter-in-prefix", get(b"/public/name;k=v"), public("/public/name;k=v")),
    passes("authenticated-prefix-with-key", get(b"/api/x", HOST + KEY), public("/api/x")),
    passes("public-prefix-nested", get(b"/public/a/b/c?d=/../e"), public("/public/a/b/c?d=/../e")),
    Case("authenticated-door-key-case-insensitive-name", get(b"/graphql", HOST + b"x-api-key: k-123\r\n"),
         (200,), closes=False, forwarded=(public("/graphql"),)),
]

CASES = DOTS + SLASHES + MATCHING
