"""How nginx 1.22 and haproxy 2.6 answer the rows where they differ from Gatehouse on accept
versus refuse (measured with scripts/differential.py on the same bytes and the same four doors),
and why Gatehouse's answer is the safer one. table.py attaches these to the rows as notes."""

# MARK: - Why Gatehouse refuses or answers as it does

SMUGGLE = ("Two framings (or a framing that hops read differently) are how requests are smuggled; "
           "refusing leaves no hop to disagree with.")
CHUNK = ("A chunk line the next hop may parse differently shifts where the body ends; strict chunk"
         " syntax keeps one reading.")
BODYLESS = ("A body on GET/HEAD is ignored by many backends and caches, which then read it as the "
            "next request.")
METHOD = ("Routes list their methods; anything else is answered at the edge instead of reaching a "
          "backend that may treat it differently.")
LINE = ("A request line that hops split differently (extra spaces, bare LF, other forms) is a "
        "desync and cache-poisoning vector; one strict grammar avoids it.")
HOST = ("Host selects virtual hosts and builds URLs behind the gateway; an ambiguous or malformed"
        " one is refused rather than guessed.")
HEADER = ("Header bytes that another parser may split, fold or truncate differently can hide or "
          "inject a field; they are refused, not passed on.")
LIMIT = "The limit is answered with its own status before anything is forwarded."
PATH = ("Routing and authentication use the bytes that are forwarded; a segment another hop would"
        " normalize differently could cross doors, so it is refused.")
AUTH = "Only the gateway's own check decides; a second credential never overrides the first."
PIPE = ("After a refusal nothing else on the connection is read, so nothing can ride behind a "
        "rejected request.")
HALF = "A cut-short request is never forwarded; there is no one to answer."
UPGRADE = ("Upgrades are not tunnelled: the request is served as plain HTTP with Upgrade dropped, so"
           " no backend switches protocols behind the gateway.")
OWS = ("RFC 9110 allows whitespace around a field value; the value is still exactly one decimal "
       "number.")
DECODED = ("Forwarded as sent, it reaches a backend that decodes `%3b` before stripping `;` "
           "parameters, decodes twice, or folds Unicode, and resolves there to a door the gateway "
           "did not route to; refusing leaves nothing to resolve.")
ANSWERED = ("A client that shut down only its sending side still reads: the request is complete, so "
            "it is forwarded and answered, as haproxy does.")

# MARK: - Observed differences, by row id

DIFFERENCES = {
    "cl-ows-around-value": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", OWS),
    "cl-and-te": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", SMUGGLE),
    "te-and-cl": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", SMUGGLE),
    "cl-zero-and-te": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", SMUGGLE),
    "cl-twice-equal": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", SMUGGLE),
    "cl-list-equal": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", SMUGGLE),
    "cl-overflow-64-bit": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", SMUGGLE),
    "cl-over-max-body": ("nginx 1.22 refuses it with 413; haproxy 2.6 forwards it.", SMUGGLE),
    "te-obs-fold": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", SMUGGLE),
    "te-http10": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", SMUGGLE),
    "te-http10-with-cl": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", SMUGGLE),
    "chunk-bare-lf": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", CHUNK),
    "chunk-extension-control-byte": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", CHUNK),
    "chunk-extension-oversized": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", CHUNK),
    "trailer-obs-fold": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", CHUNK),
    "trailer-space-before-colon": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", CHUNK),
    "trailer-oversized": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", CHUNK),
    "get-with-body": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", BODYLESS),
    "get-with-chunked-body": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", BODYLESS),
    "head-with-body": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", BODYLESS),
    "expect-refused-method-body-is-not-a-request": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", METHOD),
    "many-leading-empty-lines": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", LINE),
    "absolute-form": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", LINE),
    "absolute-form-other-host": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", LINE),
    "two-spaces-after-method": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", LINE),
    "two-spaces-before-version": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", LINE),
    "tab-separator": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", LINE),
    "trailing-space-after-version": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", LINE),
    "fragment-in-target": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", LINE),
    "bare-lf-after-request-line": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", LINE),
    "version-missing": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", LINE),
    "version-extra-digit": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", LINE),
    "version-http2-preface": ("nginx 1.22 refuses it with 400; haproxy 2.6 closes without an answer.", LINE),
    "version-http09-request": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", LINE),
    "method-lowercase": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", METHOD),
    "method-unknown": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", METHOD),
    "method-put": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", METHOD),
    "method-delete": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", METHOD),
    "method-head-not-listed": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", METHOD),
    "host-missing": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", HOST),
    "host-twice-equal": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", HOST),
    "host-list": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", HOST),
    "host-with-space": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", HOST),
    "host-with-userinfo": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", HOST),
    "host-with-path": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", HOST),
    "host-bad-port": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", HOST),
    "host-control-byte": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", HOST),
    "host-empty": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", HOST),
    "no-colon": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", HEADER),
    "obs-fold-space": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", HEADER),
    "obs-fold-tab": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", HEADER),
    "bare-lf-line-end": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", HEADER),
    "bare-lf-everywhere": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", HEADER),
    "nul-in-value": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", HEADER),
    "control-in-value": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", HEADER),
    "escape-in-value": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", HEADER),
    "del-in-value": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", HEADER),
    "parenthesis-in-name": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", HEADER),
    "slash-in-name": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", HEADER),
    "at-sign-in-name": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", HEADER),
    "non-ascii-in-name": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", HEADER),
    "too-many-headers": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", LIMIT),
    "request-line-too-long": ("nginx 1.22 refuses it with 414; haproxy 2.6 forwards it.", LIMIT),
    "dotdot-to-authenticated-door": ("nginx 1.22 refuses it with 401; haproxy 2.6 forwards it.", PATH),
    "dotdot-to-authenticated-prefix": ("nginx 1.22 refuses it with 401; haproxy 2.6 forwards it.", PATH),
    "dotdot-twice": ("nginx 1.22 refuses it with 401; haproxy 2.6 forwards it.", PATH),
    "dot-segment": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "dot-at-start": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 404.", PATH),
    "encoded-dotdot-lower": ("nginx 1.22 refuses it with 401; haproxy 2.6 forwards it.", PATH),
    "encoded-dotdot-upper": ("nginx 1.22 refuses it with 401; haproxy 2.6 forwards it.", PATH),
    "encoded-dotdot-mixed": ("nginx 1.22 refuses it with 401; haproxy 2.6 forwards it.", PATH),
    "encoded-dotdot-mixed-other": ("nginx 1.22 refuses it with 401; haproxy 2.6 forwards it.", PATH),
    "encoded-dot": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "encoded-dot-inside-name": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "dotdot-semicolon": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "dot-semicolon": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "dotdot-semicolon-parameter": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "encoded-dotdot-semicolon": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "overlong-utf8-dot": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "double-slash-start": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 404.", PATH),
    "double-slash-inside": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 404.", PATH),
    "double-slash-public-prefix": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "encoded-slash-upper": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 404.", PATH),
    "encoded-slash-in-segment": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "encoded-backslash": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "encoded-del": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PATH),
    "invalid-escape": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", PATH),
    "truncated-escape": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", PATH),
    "percent-at-end": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", PATH),
    "encoded-door-name": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 404.", PATH),
    "authenticated-door-bad-key-then-good-key": ("nginx 1.22 refuses it with 401; haproxy 2.6 forwards it.", AUTH),
    "upgrade-dropped": ("nginx 1.22 forwards it; haproxy 2.6 refuses it with 400.", UPGRADE),
    "malformed-then-good": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", PIPE),
    "smuggle-cl-te-then-good": ("nginx 1.22 refuses it with 400; haproxy 2.6 forwards it.", SMUGGLE),
    "half-head-then-eof": ("nginx 1.22 closes without an answer; haproxy 2.6 refuses it with 400.", HALF),
    "head-without-blank-line-then-eof": ("nginx 1.22 closes without an answer; haproxy 2.6 refuses it with 400.", BODYLESS),
    "half-body-then-eof": ("nginx 1.22 closes without an answer; haproxy 2.6 forwards it.", HALF),
    "chunked-without-last-chunk-then-eof": ("nginx 1.22 closes without an answer; haproxy 2.6 forwards it.", CHUNK),
    "complete-get-then-eof": ("nginx 1.22 closes without an answer; haproxy 2.6 forwards it.", ANSWERED),
    "complete-post-then-eof": ("nginx 1.22 closes without an answer; haproxy 2.6 forwards it.", ANSWERED),
    "dotdot-encoded-semicolon-lower": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "dotdot-encoded-semicolon-upper": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "dot-encoded-semicolon-lower": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "dot-encoded-semicolon-upper": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "encoded-dotdot-encoded-semicolon": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "encoded-semicolon-middle-segment": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "encoded-semicolon-last-segment": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "encoded-semicolon-inside-name": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "encoded-semicolon-in-parameter": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "semicolon-then-encoded-semicolon": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "encoded-semicolon-on-post": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "double-encoded-dotdot-lower": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "double-encoded-dotdot-upper": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "double-encoded-dot-mixed": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "double-encoded-hex-digits": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "double-encoded-slash-upper": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "double-encoded-backslash": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "double-encoded-semicolon": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "triple-encoded-dotdot": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "double-encoded-last-segment": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "encoded-percent-alone": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "fullwidth-dotdot-lower": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "fullwidth-dotdot-upper": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "fullwidth-dot-then-dot": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "fullwidth-dotdot-encoded-semicolon": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "fullwidth-dotdot-last-segment": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "fullwidth-solidus": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "fullwidth-reverse-solidus": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "small-full-stop": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "small-reverse-solidus": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "one-dot-leader": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "two-dot-leader": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "horizontal-ellipsis": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "vertical-two-dot-leader": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "care-of-contains-slash": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "digit-full-stop": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "digit-zero-full-stop-astral": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "division-slash-lower": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "division-slash-upper": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "fraction-slash": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "set-minus-backslash": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "ideographic-full-stop": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
    "halfwidth-ideographic-full-stop": ("nginx 1.22 forwards it; haproxy 2.6 forwards it.", DECODED),
}
