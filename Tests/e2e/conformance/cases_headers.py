"""Header syntax (README, "How a request is handled": no whitespace before a colon, no obs-fold, no bare CR or LF, no
control bytes) and underscore spellings of the headers the gateway sets."""

from .model import HOST, Case, Forwarded, get, passes, refused

GET_NOAUTH = Forwarded(method="GET", target="/graphql/noauth")


def with_header(field: bytes) -> bytes:
    return get(headers=HOST + field + b"\r\n")


# MARK: - Syntax

SYNTAX = [
    refused("space-before-colon", with_header(b"X-Thing : 1")),
    refused("tab-before-colon", with_header(b"X-Thing\t: 1")),
    refused("space-in-name", with_header(b"X Thing: 1")),
    refused("empty-name", with_header(b": nameless")),
    refused("no-colon", with_header(b"X-Thing")),
    refused("leading-space-first-header", b"GET /graphql/noauth HTTP/1.1\r\n X-A: 1\r\n" + HOST + b"\r\n"),
    refused("obs-fold-space", with_header(b"X-Folded: one\r\n two")),
    refused("obs-fold-tab", with_header(b"X-Folded: one\r\n\ttwo")),
    refused("bare-lf-line-end", get(headers=HOST + b"X-A: 1\n")),
    refused("bare-lf-everywhere", b"GET /graphql/noauth HTTP/1.1\nHost: gatehouse.test\n\n"),
    refused("bare-cr-in-value", with_header(b"X-Bad: a\rb")),
    refused("bare-cr-line-end", with_header(b"X-Bad: a\rX-Next: b")),
    refused("nul-in-value", with_header(b"X-Bad: a\x00b")),
    refused("nul-in-name", with_header(b"X-B\x00ad: a")),
    refused("control-in-value", with_header(b"X-Bad: a\x01b")),
    refused("escape-in-value", with_header(b"X-Bad: \x1b[31mred")),
    refused("del-in-value", with_header(b"X-Bad: a\x7fb")),
    refused("parenthesis-in-name", with_header(b"X(a): 1")),
    refused("slash-in-name", with_header(b"X/a: 1")),
    refused("at-sign-in-name", with_header(b"X@a: 1")),
    refused("non-ascii-in-name", with_header(b"X-\xc3\xa9: 1")),
    refused("too-many-headers", get(headers=HOST + b"".join(b"X-H%d: v\r\n" % i for i in range(120))),
            status=431, code="HEADERS_TOO_LARGE"),
    refused("header-section-too-large", with_header(b"X-Huge: " + b"v" * 40000),
            status=431, code="HEADERS_TOO_LARGE"),
    refused("request-line-too-long", get(b"/graphql/noauth?" + b"q" * 9000),
            status=414, code="URI_TOO_LONG"),
    Case("value-ows-trimmed", with_header(b"X-Trim: \t padded \t"), (200,), closes=False,
         forwarded=(Forwarded(method="GET", target="/graphql/noauth", present={"X-Trim": "padded"}),)),
    Case("value-empty", with_header(b"X-Empty:"), (200,), closes=False,
         forwarded=(Forwarded(method="GET", target="/graphql/noauth", present={"X-Empty": ""}),)),
    Case("value-obs-text", with_header(b"X-Latin: caf\xe9"), (200,), closes=False,
         forwarded=(Forwarded(method="GET", target="/graphql/noauth",
                              present={"X-Latin": "caf\xe9"}),),
         note="obs-text (0x80-0xFF) is allowed in values by RFC 9110 and forwarded unchanged."),
    Case("value-with-colons", with_header(b"X-Url: http://a:1/b"), (200,), closes=False,
         forwarded=(Forwarded(method="GET", target="/graphql/noauth",
                              present={"X-Url": "http://a:1/b"}),)),
    Case("name-case-kept", with_header(b"x-MiXeD: 1"), (200,), closes=False,
         forwarded=(Forwarded(method="GET", target="/graphql/noauth", present={"X-Mixed": "1"}),)),
    Case("token-characters-in-name", with_header(b"X-!#$%&'*+.^_`|~: 1"), (200,), closes=False,
         forwarded=(Forwarded(method="GET", target="/graphql/noauth",
                              present={"X-!#$%&'*+.^_`|~": "1"}),)),
]

# MARK: - Underscores

UNDERSCORES = [
    Case("underscore-service-token-dropped", with_header(b"X_Service_Token: forged"), (200,),
         closes=False, forwarded=(Forwarded(method="GET", target="/graphql/noauth",
                                            absent=("x_service_token",)),),
         note="nginx drops every underscore name by default (underscores_in_headers off); "
              "haproxy forwards them. A CGI-style backend folds `_` into `-`, so a forged "
              "X_Service_Token would shadow the injected one."),
    Case("underscore-forwarded-for-dropped", with_header(b"X_Forwarded_For: 203.0.113.9"), (200,),
         closes=False, forwarded=(Forwarded(method="GET", target="/graphql/noauth",
                                            absent=("x_forwarded_for",)),)),
    Case("underscore-request-id-dropped", with_header(b"X_Request_Id: forged"), (200,),
         closes=False, forwarded=(Forwarded(method="GET", target="/graphql/noauth",
                                            absent=("x_request_id",)),)),
    Case("underscore-forwarded-proto-dropped", with_header(b"X_Forwarded_Proto: https"), (200,),
         closes=False, forwarded=(Forwarded(method="GET", target="/graphql/noauth",
                                            absent=("x_forwarded_proto",),
                                            present={"X-Forwarded-Proto": "http"}),)),
    Case("underscore-mixed-case-dropped", with_header(b"x_SERVICE-token: forged"), (200,),
         closes=False, forwarded=(Forwarded(method="GET", target="/graphql/noauth",
                                            absent=("x_service-token",)),)),
    Case("underscore-other-name-forwarded", with_header(b"X_Custom: kept"), (200,), closes=False,
         forwarded=(Forwarded(method="GET", target="/graphql/noauth", present={"X_Custom": "kept"}),)),
    passes("underscore-api-key-does-not-authenticate",
           get(headers=HOST + b"X_Api_Key: k-123\r\n"), GET_NOAUTH),
    Case("underscore-api-key-on-the-authenticated-door", get(b"/graphql", HOST + b"X_Api_Key: k-123\r\n"),
         (401,), closes=False, code="UNAUTHENTICATED"),
]

CASES = SYNTAX + UNDERSCORES
